import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import type { ConfiguredClient } from "../../common/api/organization.ts";
import { useBuiltInNames } from "../builtInNames.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { CopyButton } from "../components/CopyButton.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { Labels } from "../components/Labels.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { Section } from "../components/Section.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { applicationQuery, issuerQuery } from "../partials/organization/organizationApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { NeedsConfiguration } from "../partials/organization/NeedsConfiguration.tsx";
import { SecretField } from "../partials/organization/SecretField.tsx";
import type { Secrets } from "../partials/organization/useOrganizationSave.tsx";
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
  // What the app's configuration just gave: its new secrets, shown once, and that it was saved.
  const [secrets, setSecrets] = useState<Secrets>({});
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
          {application.data.clients && <SetUp clients={application.data.clients} />}
        </>
      ) : application.isError ? (
        <QueryError error={application.error} />
      ) : (
        <p role="status">{t("app.loading")}</p>
      )}
    </div>
  );
}

/** For the organization's admins: the issuer and each client as the app is to be configured. */
function SetUp({ clients }: { readonly clients: readonly ConfiguredClient[] }) {
  const { t } = useTranslation();
  const issuer = useQuery(issuerQuery);
  return (
    <Section title={t("organizations.app.setupTitle")}>
      <p className="text-slate-700">{t("organizations.app.setupHint")}</p>
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
                value={`${issuer.data}/.well-known/openid-configuration`}
                copyLabel={t("organizations.app.copyDiscovery")}
              />
            </dd>
          </>
        )}
      </dl>
      <ul className="flex flex-col gap-4">
        {clients.map((client) => (
          <ClientSetUp key={client.id} client={client} />
        ))}
      </ul>
    </Section>
  );
}

function ClientSetUp({ client }: { readonly client: ConfiguredClient }) {
  const { t } = useTranslation();
  const authentication = client.tokenEndpointAuthMethod ?? "none";
  return (
    <li className="flex flex-col gap-3 rounded-md border border-slate-200 p-4">
      <div>
        <h3 className="text-lg font-semibold break-words">
          {t(`organizations.app.kinds.${client.kind}`)}
          {client.description && <span className="font-normal text-slate-700"> · {client.description}</span>}
        </h3>
        <p className="text-sm text-slate-700">{t(`organizations.app.kindHints.${client.kind}`)}</p>
      </div>
      <dl className="flex flex-col gap-3">
        <div className="flex flex-col gap-1">
          <dt className="font-medium">{t("organizations.app.clientId")}</dt>
          <dd>
            <CopyableValue value={client.id} copyLabel={t("organizations.apps.copyClientId")} />
          </dd>
        </div>
        {client.scopes.length > 0 && (
          <div className="flex flex-col gap-1">
            <dt className="font-medium">{t("organizations.app.scopes")}</dt>
            <dd>
              <ul className="flex flex-wrap gap-2" aria-label={t("organizations.app.scopes")}>
                {client.scopes.map((scope) => (
                  <li key={scope}>
                    <code className="rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-800">{scope}</code>
                  </li>
                ))}
              </ul>
              <p className="mt-1 text-sm text-slate-700">
                {t(`organizations.app.scopesHint.${client.kind}`)}
              </p>
            </dd>
          </div>
        )}
        <UriList
          title={t("organizations.app.redirectUris")}
          uris={client.redirectUris}
          copyLabel={t("organizations.app.copyRedirectUri")}
        />
        <UriList
          title={t("organizations.app.postLogoutRedirectUris")}
          uris={client.postLogoutRedirectUris}
          copyLabel={t("organizations.app.copyPostLogoutRedirectUri")}
        />
        {client.backchannelLogoutUri !== undefined && (
          <div className="flex flex-col gap-1">
            <dt className="font-medium">{t("organizations.app.backchannelLogoutUri")}</dt>
            <dd>
              <CopyableValue
                value={client.backchannelLogoutUri}
                copyLabel={t("organizations.app.copyBackchannelLogoutUri")}
              />
              <p className="text-sm text-slate-700">{t("organizations.app.backchannelLogoutHint")}</p>
            </dd>
          </div>
        )}
        {client.requirePushedAuthorizationRequests && (
          <div className="flex flex-col gap-1">
            <dt className="font-medium">{t("organizations.app.pushedRequests")}</dt>
            <dd>{t("organizations.app.pushedRequestsRequired")}</dd>
          </div>
        )}
        <div className="flex flex-col gap-1">
          <dt className="font-medium">{t("organizations.app.authentication")}</dt>
          <dd>
            {t(`organizations.app.authMethods.${authentication}`)}{" "}
            <code className="text-sm text-slate-700">({authentication})</code>
            {client.kind !== "public" && (
              <p className="text-sm text-slate-700">{t("organizations.app.secretHint")}</p>
            )}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** URIs the app is configured with, under their title; nothing when there are none. */
function UriList({
  title,
  uris,
  copyLabel,
}: {
  readonly title: string;
  readonly uris: readonly string[];
  readonly copyLabel: string;
}) {
  if (uris.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <dt className="font-medium">{title}</dt>
      <dd>
        <ul className="flex flex-col gap-2">
          {uris.map((uri) => (
            <li key={uri}>
              <CopyableValue value={uri} copyLabel={copyLabel} />
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}

/** A value to paste into the app's configuration, with its copy button beside it or under it. */
function CopyableValue({ value, copyLabel }: { readonly value: string; readonly copyLabel: string }) {
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Identifier value={value} />
      <CopyButton value={value} label={copyLabel} />
    </span>
  );
}
