import type { ConfiguredClient } from "../../../common/api/organization.ts";
import { useTranslation } from "../../i18n/index.ts";
import { ClientSnippets } from "./ClientSnippets.tsx";
import { CopyableValue } from "./CopyableValue.tsx";

/** One client as the app is configured with it: its values, then library configuration to copy. */
export function ClientSetUp({
  client,
  issuer,
  caFile,
}: {
  readonly client: ConfiguredClient;
  /** Known once discovery has answered; the snippets wait for it. */
  readonly issuer: string | undefined;
  readonly caFile: string | undefined;
}) {
  const { t } = useTranslation();
  const authentication = client.tokenEndpointAuthMethod ?? "none";
  return (
    <li className="flex min-w-0 flex-col gap-4 rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <div>
        <h3 className="text-lg font-semibold break-words">
          {t(`organizations.app.kinds.${client.kind}`)}
          {client.description && (
            <span className="font-normal text-slate-700 dark:text-slate-300"> · {client.description}</span>
          )}
        </h3>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t(`organizations.app.kindHints.${client.kind}`)}
        </p>
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
              <ScopeList scopes={client.scopes} label={t("organizations.app.scopes")} />
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
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
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {t("organizations.app.backchannelLogoutHint")}
              </p>
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
            <code className="text-sm text-slate-700 dark:text-slate-300">({authentication})</code>
            {client.kind !== "public" && (
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {t("organizations.app.secretHint")}
              </p>
            )}
          </dd>
        </div>
      </dl>
      {issuer !== undefined && <ClientSnippets issuer={issuer} client={client} caFile={caFile} />}
    </li>
  );
}

/** Scopes as the code that asks for them spells them. */
export function ScopeList({ scopes, label }: { readonly scopes: readonly string[]; readonly label: string }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label={label}>
      {scopes.map((scope) => (
        <li key={scope}>
          <code className="rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-200">
            {scope}
          </code>
        </li>
      ))}
    </ul>
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
