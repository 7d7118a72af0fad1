import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Template } from "../../common/api/template.ts";
import { CopyButton } from "../components/CopyButton.tsx";
import { DocumentPage, DocumentSummary } from "../components/DocumentPage.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { TemplateEditor } from "../partials/template/TemplateEditor.tsx";
import { templateQuery } from "../partials/template/templateApi.ts";

/** One application template (spec §2): its public details, and for its admins the form to change it. */
export function ApplicationTemplateGet() {
  return (
    <DocumentPage keys="templates" listRoute="ApplicationTemplateList" query={templateQuery}>
      {(data) => <TemplateDetails template={data} />}
    </DocumentPage>
  );
}

function TemplateDetails({ template }: { readonly template: Template }) {
  const { t } = useTranslation();
  const id: [string, ReactNode] = [
    t("templates.fields.id"),
    <span className="flex flex-wrap items-center gap-2">
      <Identifier value={template.id} />
      <CopyButton value={template.id} label={t("templates.copyId")} />
    </span>,
  ];
  if (template.canUpdate) {
    return (
      <>
        <DocumentSummary document={template} fields={[id]} />
        <TemplateEditor template={template} />
      </>
    );
  }
  return (
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
        [t("templates.clients.kinds.public.title"), template.clientsPublic.length || null],
        [t("templates.clients.kinds.backend.title"), template.clientsBackend.length || null],
        [t("templates.clients.kinds.service.title"), template.clientsService.length || null],
        id,
      ]}
    />
  );
}
