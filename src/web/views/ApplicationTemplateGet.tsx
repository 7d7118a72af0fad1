import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Template } from "../../common/api/template.ts";
import { AdminsSection } from "../components/AdminsSection.tsx";
import { Button } from "../components/Button.tsx";
import { DocumentPage, DocumentSummary } from "../components/DocumentPage.tsx";
import { TextAreaField, TextField } from "../components/Field.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { SectionForm } from "../components/SectionForm.tsx";
import { splitWords } from "../partials/template/clientDraft.ts";
import { ClientsSection } from "../partials/template/ClientsSection.tsx";
import { fieldsOf, templateQuery, updateTemplate } from "../partials/template/templateApi.ts";

/** One application template (spec §2): public details, and a section per part for its admins. */
export function ApplicationTemplateGet() {
  return (
    <DocumentPage keys="templates" listRoute="ApplicationTemplateList" query={templateQuery}>
      {(data) => <TemplateDetails template={data} />}
    </DocumentPage>
  );
}

function TemplateDetails({ template }: { readonly template: Template }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <>
      <DocumentSummary
        document={template}
        fields={[
          [t("templates.fields.homepage"), template.homepageTemplate],
          [t("templates.fields.idScopes"), template.idScopes.join(" ")],
          [
            t("templates.fields.variables"),
            template.variables.length > 0 && (
              <ul>
                {template.variables.map((variable) => (
                  <li key={variable.name}>
                    <span className="font-mono">{variable.name}</span>
                    {variable.description && ` – ${variable.description}`}
                  </li>
                ))}
              </ul>
            ),
          ],
          [t("templates.clients.public.title"), template.clientsPublic.length || null],
          [t("templates.clients.backend.title"), template.clientsBackend.length || null],
          [t("templates.clients.service.title"), template.clientsService.length || null],
          [t("templates.fields.id"), <Identifier value={template.id} />],
        ]}
      />
      {template.canUpdate && (
        <>
          <BasicSection template={template} />
          <VariablesSection template={template} />
          <ClientsSection template={template} kind="public" />
          <ClientsSection template={template} kind="backend" />
          <ClientsSection template={template} kind="service" />
          <AdminsSection
            admins={template.admins}
            save={async (admins) =>
              (await updateTemplate(queryClient, template.id, { ...fieldsOf(template), admins })).admins
            }
          />
        </>
      )}
    </>
  );
}

function BasicSection({ template }: { readonly template: Template }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(template.name);
  const [description, setDescription] = useState(template.description);
  const [homepage, setHomepage] = useState(template.homepageTemplate);
  const [scopes, setScopes] = useState(template.idScopes.join(" "));
  return (
    <SectionForm
      title={t("templates.basic.title")}
      submitLabel={t("common.update")}
      savedMessage={t("templates.basic.updated")}
      onSubmit={async () => {
        await updateTemplate(queryClient, template.id, {
          ...fieldsOf(template),
          name,
          description,
          homepageTemplate: homepage,
          idScopes: splitWords(scopes),
        });
      }}
    >
      {(fieldError) => (
        <>
          <TextField
            label={t("common.name")}
            name="name"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <TextAreaField
            label={t("common.description")}
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
          <TextField
            label={t("templates.fields.homepage")}
            name="homepageTemplate"
            error={fieldError("homepageTemplate")}
            hint={t("templates.fields.homepageHint")}
            className="font-mono"
            value={homepage}
            onChange={(event) => setHomepage(event.target.value)}
          />
          <TextField
            label={t("templates.fields.idScopes")}
            hint={t("templates.spaceSeparated")}
            value={scopes}
            onChange={(event) => setScopes(event.target.value)}
          />
        </>
      )}
    </SectionForm>
  );
}

function VariablesSection({ template }: { readonly template: Template }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [variables, setVariables] = useState(template.variables);
  const change = (index: number, fields: Partial<Template["variables"][number]>) =>
    setVariables(variables.map((variable, i) => (i === index ? { ...variable, ...fields } : variable)));
  return (
    <SectionForm
      title={t("templates.variables.title")}
      submitLabel={t("common.update")}
      savedMessage={t("templates.variables.updated")}
      onSubmit={async () => {
        await updateTemplate(queryClient, template.id, { ...fieldsOf(template), variables });
      }}
    >
      {(fieldError) => (
        <>
          <p className="text-sm text-slate-700">{t("templates.variables.hint")}</p>
          {variables.map((variable, index) => {
            const name = t("templates.variables.item", { number: index + 1 });
            return (
              <fieldset key={index} className="flex flex-col gap-3 rounded-md border border-slate-200 p-4">
                <legend className="px-1 font-semibold">{name}</legend>
                <TextField
                  label={t("common.name")}
                  name={`variables.${index}.name`}
                  error={fieldError(`variables.${index}.name`)}
                  className="font-mono"
                  value={variable.name}
                  onChange={(event) => change(index, { name: event.target.value })}
                />
                <TextField
                  label={t("common.description")}
                  value={variable.description}
                  onChange={(event) => change(index, { description: event.target.value })}
                />
                <div>
                  <Button
                    variant="secondary"
                    aria-label={`${t("common.remove")}: ${name}`}
                    onClick={() => setVariables(variables.filter((_, i) => i !== index))}
                  >
                    {t("common.remove")}
                  </Button>
                </div>
              </fieldset>
            );
          })}
          <div>
            <Button
              variant="secondary"
              onClick={() => setVariables([...variables, { name: "", description: "" }])}
            >
              {t("templates.variables.add")}
            </Button>
          </div>
        </>
      )}
    </SectionForm>
  );
}
