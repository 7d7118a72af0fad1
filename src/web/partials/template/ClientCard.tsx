import { useId, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import {
  accessTokenTypes,
  defaultRefreshTokenLifespanSeconds,
  tokenEndpointAuthMethods,
} from "../../../common/api/template.ts";
import { Button } from "../../components/Button.tsx";
import { CopyButton } from "../../components/CopyButton.tsx";
import { CheckboxField, TextAreaField, TextField } from "../../components/Field.tsx";
import { Identifier } from "../../components/Identifier.tsx";
import { ChoiceField } from "./ChoiceField.tsx";
import type { FieldErrors } from "./fieldErrors.ts";
import { secondsPer } from "./lifespan.ts";
import { LifespanField } from "./LifespanField.tsx";
import { useLifespanText } from "./lifespanText.ts";
import {
  usesBackchannelLogout,
  usesClientSecret,
  usesPersonTokens,
  usesRedirects,
  type ClientDraft,
  type LifespanField as LifespanFieldName,
} from "./templateDraft.ts";

/** The first line of a text that has something on it. */
const firstLine = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "");

/** A URI of the client's in the list of its settings at a glance, when it has one. */
function UriAtAGlance({ term, uri }: { readonly term: string; readonly uri: string | undefined }) {
  if (uri === undefined) return null;
  return (
    <>
      <dt className="text-slate-700 dark:text-slate-300">{term}</dt>
      <dd>
        <Identifier value={uri} />
      </dd>
    </>
  );
}

/**
 * One client of the template as a card: its kind, ID and main settings at a glance, and its settings
 * to edit once opened. A new client starts open; a card with an error opens to show it.
 */
export function ClientCard({
  client,
  name,
  path,
  errors,
  onChange,
  onRemove,
}: {
  readonly client: ClientDraft;
  /** What the card is called ("Public client 1"). */
  readonly name: string;
  /** Where the client's fields are in the request (`clientsPublic.0`). */
  readonly path: string;
  readonly errors: FieldErrors;
  readonly onChange: (fields: Partial<ClientDraft>) => void;
  readonly onRemove: () => void;
}) {
  const { t } = useTranslation();
  const lifespanText = useLifespanText();
  const titleId = useId();
  const settingsId = useId();
  const [opened, setOpened] = useState(client.id === undefined);
  const open = opened || errors.inside(path);
  const kind = client.kind;

  const lifespan = (field: LifespanFieldName, hint?: string) => (
    <LifespanField
      label={t(`templates.clients.${field}`)}
      hint={hint}
      name={`${path}.${field}`}
      error={errors.at(`${path}.${field}`)}
      value={client[field]}
      onChange={(value) => onChange({ [field]: value })}
    />
  );

  return (
    <div
      role="group"
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4 shadow-sm dark:border-slate-600 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="flex flex-wrap items-center gap-2 font-semibold">
            <span id={titleId} className="break-words">
              {name}
            </span>
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800 ring-1 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600">
              {t(`templates.clients.kinds.${kind}.badge`)}
            </span>
            {usesRedirects(kind) && client.requirePushedAuthorizationRequests && (
              <span className="rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-900 ring-1 ring-blue-300 dark:bg-blue-950 dark:text-blue-100 dark:ring-blue-700">
                {t("templates.clients.parBadge")}
              </span>
            )}
          </h3>
          {client.description && (
            <p className="break-words text-slate-700 dark:text-slate-300">{client.description}</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-expanded={open}
            aria-controls={settingsId}
            aria-label={`${t(open ? "templates.clients.close" : "templates.clients.open")}: ${name}`}
            onClick={() => setOpened(!open)}
          >
            {t(open ? "templates.clients.close" : "templates.clients.open")}
          </Button>
          <Button variant="secondary" aria-label={`${t("common.remove")}: ${name}`} onClick={onRemove}>
            {t("common.remove")}
          </Button>
        </div>
      </div>

      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-700 dark:text-slate-300">{t("templates.clients.id")}</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-2">
          {client.id === undefined ? (
            <span className="text-slate-700 italic dark:text-slate-300">
              {t("templates.clients.notSaved")}
            </span>
          ) : (
            <>
              <Identifier value={client.id} />
              <CopyButton value={client.id} label={t("templates.clients.copyId")} />
            </>
          )}
        </dd>
        {usesRedirects(kind) && (
          <>
            <UriAtAGlance
              term={t("templates.clients.redirect")}
              uri={firstLine(client.redirectUriTemplates)}
            />
            <UriAtAGlance
              term={t("templates.clients.postLogoutRedirect")}
              uri={firstLine(client.postLogoutRedirectUriTemplates)}
            />
          </>
        )}
        {usesBackchannelLogout(kind) && (
          <UriAtAGlance
            term={t("templates.clients.backchannelLogout")}
            uri={firstLine(client.backchannelLogoutUriTemplate)}
          />
        )}
        <dt className="text-slate-700 dark:text-slate-300">{t("templates.clients.accessToken")}</dt>
        <dd>
          {t(`templates.clients.tokenTypes.${client.accessTokenType}`)},{" "}
          {lifespanText(client.accessTokenLifespan)}
        </dd>
      </dl>

      <div
        id={settingsId}
        hidden={!open}
        className="flex flex-col gap-4 border-t border-slate-200 pt-4 dark:border-slate-700"
      >
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t(`templates.clients.kinds.${kind}.about`)}
        </p>
        <TextField
          label={t("common.description")}
          name={`${path}.description`}
          error={errors.at(`${path}.description`)}
          value={client.description}
          onChange={(event) => onChange({ description: event.target.value })}
        />
        {usesRedirects(kind) && (
          <TextAreaField
            label={t("templates.clients.redirectUris")}
            name={`${path}.redirectUriTemplates`}
            error={errors.at(`${path}.redirectUriTemplates`)}
            hint={t("templates.clients.redirectUrisHint")}
            rows={3}
            className="font-mono"
            value={client.redirectUriTemplates}
            onChange={(event) => onChange({ redirectUriTemplates: event.target.value })}
          />
        )}
        {usesRedirects(kind) && (
          <TextAreaField
            label={t("templates.clients.postLogoutRedirectUris")}
            name={`${path}.postLogoutRedirectUriTemplates`}
            error={errors.at(`${path}.postLogoutRedirectUriTemplates`)}
            hint={t("templates.clients.postLogoutRedirectUrisHint")}
            rows={2}
            className="font-mono"
            value={client.postLogoutRedirectUriTemplates}
            onChange={(event) => onChange({ postLogoutRedirectUriTemplates: event.target.value })}
          />
        )}
        {usesBackchannelLogout(kind) && (
          <TextField
            label={t("templates.clients.backchannelLogoutUri")}
            name={`${path}.backchannelLogoutUriTemplate`}
            error={errors.at(`${path}.backchannelLogoutUriTemplate`)}
            hint={t("templates.clients.backchannelLogoutUriHint")}
            className="font-mono"
            value={client.backchannelLogoutUriTemplate}
            onChange={(event) => onChange({ backchannelLogoutUriTemplate: event.target.value })}
          />
        )}
        <TextField
          label={t("templates.clients.additionalScopes")}
          name={`${path}.additionalScopes`}
          error={errors.at(`${path}.additionalScopes`)}
          hint={t("templates.spaceSeparated")}
          value={client.additionalScopes}
          onChange={(event) => onChange({ additionalScopes: event.target.value })}
        />
        <ChoiceField
          legend={t("templates.clients.accessTokenType")}
          name={`${path}.accessTokenType`}
          value={client.accessTokenType}
          choices={accessTokenTypes.map((value) => ({
            value,
            label: t(`templates.clients.tokenTypes.${value}`),
          }))}
          onChange={(value) => onChange({ accessTokenType: value })}
        />
        {usesClientSecret(kind) && (
          <ChoiceField
            legend={t("templates.clients.authMethod")}
            name={`${path}.tokenEndpointAuthMethod`}
            value={client.tokenEndpointAuthMethod}
            choices={tokenEndpointAuthMethods.map((value) => ({
              value,
              label: t(`templates.clients.authMethods.${value}`),
            }))}
            onChange={(value) => onChange({ tokenEndpointAuthMethod: value })}
          />
        )}
        {usesRedirects(kind) && (
          <CheckboxField
            label={t("templates.clients.requirePar")}
            hint={t("templates.clients.requireParHint")}
            name={`${path}.requirePushedAuthorizationRequests`}
            checked={client.requirePushedAuthorizationRequests}
            onChange={(event) => onChange({ requirePushedAuthorizationRequests: event.target.checked })}
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {lifespan("accessTokenLifespan")}
          {usesPersonTokens(kind) && (
            <>
              {lifespan("idTokenLifespan")}
              {lifespan(
                "refreshTokenLifespan",
                t("templates.clients.refreshTokenLifespanHint", {
                  count: defaultRefreshTokenLifespanSeconds / secondsPer.days,
                }),
              )}
            </>
          )}
        </div>
      </div>
    </div>
  );
}
