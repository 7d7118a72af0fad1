import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { useBuiltInNames } from "../builtInNames.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useTranslation } from "../i18n/index.ts";
import { applicationQuery } from "../partials/organization/organizationApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { TrySignInResult } from "../partials/organization/TrySignInResult.tsx";
import { trySignInResult } from "../trySignIn.ts";

/** Where "Try signing in" comes back to: what the app would get from the sign-in just tried. */
export function OrganizationAppTry() {
  const { t } = useTranslation();
  const { id = "", appId = "" } = useParams();
  const application = useQuery(applicationQuery(id, appId));
  const result = useQuery({
    queryKey: ["trySignIn", appId],
    queryFn: () => trySignInResult(appId),
    staleTime: Infinity,
    gcTime: 0,
  });
  const names = useBuiltInNames();
  const template = application.data?.applicationTemplate;
  const appName = template ? names.application(appId, template.name) : t("organizations.app.title");
  const title = t("organizations.try.title", { app: appName });
  useDocumentTitle(title);
  const trail = [
    ...useOrganizationTrail(id),
    { label: appName, to: pathFor("OrganizationApp", { id, appId }) },
  ];
  const trySignIn = application.data?.trySignIn;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs trail={trail} current={t("organizations.app.try.title")} />
      <h1 className="text-3xl font-bold tracking-tight break-words">{title}</h1>
      {result.isPending ? (
        <p role="status">{t("app.loading")}</p>
      ) : (
        <TrySignInResult
          result={result.data ?? null}
          app={trySignIn && { organizationId: id, applicationId: appId, ...trySignIn }}
        />
      )}
    </div>
  );
}
