import { useQuery } from "@tanstack/react-query";
import type { PublicApplication } from "../../../common/api/organization.ts";
import { routes } from "../../../common/routes.ts";
import { QueryError } from "../../components/QueryError.tsx";
import { Section } from "../../components/Section.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { ClientSetUp } from "./ClientSetUp.tsx";
import { CopyableValue } from "./CopyableValue.tsx";
import { LocalCaHint } from "./LocalCaHint.tsx";
import { issuerQuery } from "./organizationApi.ts";
import { TrySignInPanel } from "./TrySignInPanel.tsx";

/**
 * For the organization's admins, all that connecting the app takes: the issuer, the local CA when
 * Vrata's certificate is its own, each client with library configuration to copy, and a way to try
 * the app's sign-in before writing any code.
 */
export function AppSetUp({
  organizationId,
  application,
  clients,
}: {
  readonly organizationId: string;
  readonly application: PublicApplication;
  readonly clients: NonNullable<PublicApplication["clients"]>;
}) {
  const { t } = useTranslation();
  const issuer = useQuery(issuerQuery);
  const caFile = application.localCaFile;
  return (
    <Section title={t("organizations.app.setupTitle")}>
      <p className="text-slate-700 dark:text-slate-300">{t("organizations.app.setupHint")}</p>
      <dl className="flex flex-col gap-1">
        <dt className="font-medium">{t("organizations.app.issuer")}</dt>
        <dd>
          {issuer.data !== undefined ? (
            <CopyableValue value={issuer.data} copyLabel={t("organizations.app.copyIssuer")} />
          ) : issuer.isError ? (
            <QueryError error={issuer.error} />
          ) : (
            <span role="status">{t("app.loading")}</span>
          )}
        </dd>
        {issuer.data !== undefined && (
          <>
            <dt className="mt-2 font-medium">{t("organizations.app.discovery")}</dt>
            <dd>
              <CopyableValue
                value={issuer.data + routes.OIDCDiscovery.path}
                copyLabel={t("organizations.app.copyDiscovery")}
              />
            </dd>
          </>
        )}
      </dl>
      {caFile !== undefined && <LocalCaHint caFile={caFile} />}
      <TrySignInPanel organizationId={organizationId} application={application} />
      <ul className="flex flex-col gap-4">
        {clients.map((client) => (
          <ClientSetUp key={client.id} client={client} issuer={issuer.data} caFile={caFile} />
        ))}
      </ul>
    </Section>
  );
}
