import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { useBuiltInNames } from "../builtInNames.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { Labels } from "../components/Labels.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { applicationQuery } from "../partials/organization/organizationApi.ts";
import { AppSetUp } from "../partials/organization/AppSetUp.tsx";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { NeedsConfiguration } from "../partials/organization/NeedsConfiguration.tsx";
import { SecretField } from "../partials/organization/SecretField.tsx";
import type { Secrets } from "../partials/organization/useOrganizationSave.tsx";
import { forgetHandedOverSecrets, handedOverSecrets } from "../partials/organization/handedOverSecrets.ts";
import { needsConfiguration } from "../../common/app-configuration.ts";

/**
 * An application of an organization: what anybody may see of it, and for the organization's admins
 * what they configure the app with (issuer, client IDs, redirect URIs as the values resolve them).
 */
export function OrganizationApp() {
  const { t } = useTranslation();
  const { id = "", appId = "" } = useParams();
  const application = useQuery(applicationQuery(id, appId));
  const template = application.data?.applicationTemplate;
  const names = useBuiltInNames();
  const name = template ? names.application(appId, template.name) : t("organizations.app.title");
  useDocumentTitle(name);
  const trail = useOrganizationTrail(id);
  // What the app's configuration just gave, or its connection did: new secrets, shown once, and that
  // it was saved.
  const [secrets, setSecrets] = useState<Secrets>(() => handedOverSecrets(appId));
  useEffect(() => forgetHandedOverSecrets(appId), [appId]);
  const [configured, setConfigured] = useState(false);
  const needs = application.data?.needs;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs trail={trail} current={name} />
      <h1 className="text-3xl font-bold tracking-tight">
        <span className="break-words">{name}</span>
        {application.data?.clients && (
          <Labels
            labels={[
              application.data.active ? t("common.labels.active") : t("common.labels.disabled"),
              ...(needs && needsConfiguration(needs) ? [t("organizations.app.needs.label")] : []),
            ]}
          />
        )}
      </h1>
      {application.data !== undefined && template ? (
        <>
          {needs && needsConfiguration(needs) && (
            <NeedsConfiguration
              organizationId={id}
              applicationId={appId}
              needs={needs}
              variables={template.variables}
              clients={application.data.clients ?? []}
              onSecrets={setSecrets}
              onSaved={() => setConfigured(true)}
            />
          )}
          <p role="status" className="font-medium text-green-800 empty:hidden dark:text-green-300">
            {configured ? t("organizations.apps.configurationSaved") : ""}
          </p>
          {Object.entries(secrets).map(([clientId, secret]) => (
            <SecretField key={clientId} clientId={clientId} secret={secret} />
          ))}
          <DetailList
            fields={[
              [t("common.description"), template.description],
              [
                t("organizations.app.homepage"),
                application.data.homepage && (
                  <a
                    href={application.data.homepage}
                    className="wrap-anywhere text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
                  >
                    {application.data.homepage}
                  </a>
                ),
              ],
              [
                t("organizations.apps.configuration"),
                application.data.values.length > 0 && (
                  <ul>
                    {application.data.values.map((value) => (
                      <li key={value.name} className="wrap-anywhere">
                        <span className="font-mono">{value.name}</span>: {value.value}
                      </li>
                    ))}
                  </ul>
                ),
              ],
            ]}
          />
          {application.data.clients && (
            <AppSetUp organizationId={id} application={application.data} clients={application.data.clients} />
          )}
        </>
      ) : application.isError ? (
        <QueryError error={application.error} />
      ) : (
        <p role="status">{t("app.loading")}</p>
      )}
    </div>
  );
}
