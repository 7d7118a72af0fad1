import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { pathFor } from "../../common/routes.ts";
import { EmptyState } from "../components/EmptyState.tsx";
import { IdentityIcon } from "../components/icons.tsx";
import { CreateLink, PageHeader } from "../components/PageHeader.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { IdentityCard } from "../partials/identity/IdentityCard.tsx";
import { identitiesQuery } from "../partials/identity/identityApi.ts";
import { identityLabels } from "../partials/identity/identityLabels.ts";
import { useSignedIn } from "../session.ts";

/** The identities the signed-in person can use or administer (spec §2, IdentityList). */
export function IdentityList() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const identities = useQuery({ ...identitiesQuery, enabled: signedIn });
  useDocumentTitle(t("identities.title"));

  const create = <CreateLink to={pathFor("IdentityCreate")}>{t("identities.create")}</CreateLink>;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={t("identities.title")}
        description={t("nav.descriptions.identities")}
        // An empty list offers the same action in its place.
        action={signedIn && identities.data?.length !== 0 && create}
      />
      <SignedInContent signedOutMessage={t("identities.signedOut")} query={identities}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState icon={IdentityIcon} message={t("identities.empty")} action={create} />
          ) : (
            <div>
              <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
                {t("identities.count", { count: list.length })}
              </p>
              <ul className="flex flex-col gap-2">
                {list.map((identity) => (
                  <IdentityCard
                    key={identity.id}
                    identity={identity}
                    labels={identityLabels(t, identity)}
                    link={pathFor("IdentityGet", { id: identity.id })}
                  />
                ))}
              </ul>
            </div>
          )
        }
      </SignedInContent>
    </div>
  );
}
