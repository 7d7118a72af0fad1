import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accessTokenTypes, tokenEndpointAuthMethods, type Template } from "../../../common/api/template.ts";
import { Button } from "../../components/Button.tsx";
import { TextAreaField, TextField } from "../../components/Field.tsx";
import { SectionForm } from "../../components/SectionForm.tsx";
import { SelectField } from "../../components/SelectField.tsx";
import {
  backendClientOf,
  draftOf,
  newDraft,
  publicClientOf,
  serviceClientOf,
  type ClientDraft,
  type ClientKind,
} from "./clientDraft.ts";
import { fieldsOf, updateTemplate } from "./templateApi.ts";

const listOf = { public: "clientsPublic", backend: "clientsBackend", service: "clientsService" } as const;

/** The template's clients of one kind, each with its settings, saved together. */
export function ClientsSection({
  template,
  kind,
}: {
  readonly template: Template;
  readonly kind: ClientKind;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<ClientDraft[]>(() => template[listOf[kind]].map(draftOf));

  const change = (key: string, fields: Partial<ClientDraft>) =>
    setDrafts(drafts.map((draft) => (draft.key === key ? { ...draft, ...fields } : draft)));

  return (
    <SectionForm
      title={t(`templates.clients.${kind}.title`)}
      submitLabel={t("common.update")}
      savedMessage={t(`templates.clients.${kind}.updated`)}
      onSubmit={async () => {
        const clients =
          kind === "public"
            ? { clientsPublic: drafts.map(publicClientOf) }
            : kind === "backend"
              ? { clientsBackend: drafts.map(backendClientOf) }
              : { clientsService: drafts.map(serviceClientOf) };
        const updated = await updateTemplate(queryClient, template.id, { ...fieldsOf(template), ...clients });
        setDrafts(updated[listOf[kind]].map(draftOf));
      }}
    >
      {(fieldError) => (
        <>
          {drafts.length === 0 && <p className="text-slate-700">{t(`templates.clients.${kind}.none`)}</p>}
          {drafts.map((draft, index) => {
            const name = t(`templates.clients.${kind}.item`, { number: index + 1 });
            return (
              <fieldset
                key={draft.key}
                className="flex flex-col gap-3 rounded-md border border-slate-200 p-4"
              >
                <legend className="px-1 font-semibold">{name}</legend>
                {draft.id !== undefined && (
                  <p className="text-sm text-slate-700">
                    {t("templates.clients.id")}: <span className="font-mono break-all">{draft.id}</span>
                  </p>
                )}
                <TextField
                  label={t("common.description")}
                  value={draft.description}
                  onChange={(event) => change(draft.key, { description: event.target.value })}
                />
                {kind !== "service" && (
                  <TextAreaField
                    label={t("templates.clients.redirectUris")}
                    name={`${listOf[kind]}.${index}.redirectUriTemplates`}
                    error={fieldError(`${listOf[kind]}.${index}.redirectUriTemplates`)}
                    hint={t("templates.clients.redirectUrisHint")}
                    rows={3}
                    className="font-mono"
                    value={draft.redirectUriTemplates}
                    onChange={(event) => change(draft.key, { redirectUriTemplates: event.target.value })}
                  />
                )}
                <TextField
                  label={t("templates.clients.additionalScopes")}
                  hint={t("templates.spaceSeparated")}
                  value={draft.additionalScopes}
                  onChange={(event) => change(draft.key, { additionalScopes: event.target.value })}
                />
                <SelectField
                  label={t("templates.clients.accessTokenType")}
                  value={draft.accessTokenType}
                  options={accessTokenTypes.map((type) => [type, t(`templates.clients.tokenTypes.${type}`)])}
                  onChange={(value) => change(draft.key, { accessTokenType: value })}
                />
                {kind !== "public" && (
                  <SelectField
                    label={t("templates.clients.authMethod")}
                    value={draft.tokenEndpointAuthMethod}
                    options={tokenEndpointAuthMethods.map((method) => [method, method])}
                    onChange={(value) => change(draft.key, { tokenEndpointAuthMethod: value })}
                  />
                )}
                {(["accessTokenLifespan", "idTokenLifespan", "refreshTokenLifespan"] as const).map(
                  (field) => (
                    <TextField
                      key={field}
                      label={t(`templates.clients.${field}`)}
                      hint={t("templates.clients.seconds")}
                      type="number"
                      min={1}
                      inputMode="numeric"
                      value={draft[field]}
                      onChange={(event) => change(draft.key, { [field]: event.target.value })}
                    />
                  ),
                )}
                <div>
                  <Button
                    variant="secondary"
                    aria-label={`${t("common.remove")}: ${name}`}
                    onClick={() => setDrafts(drafts.filter((other) => other.key !== draft.key))}
                  >
                    {t("common.remove")}
                  </Button>
                </div>
              </fieldset>
            );
          })}
          <div>
            <Button variant="secondary" onClick={() => setDrafts([...drafts, newDraft(template)])}>
              {t(`templates.clients.${kind}.add`)}
            </Button>
          </div>
        </>
      )}
    </SectionForm>
  );
}
