import type { ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import type { Template } from "../../common/api/template.ts";
import { scopeDescription, templateScopeProblems } from "../../common/scopes.ts";
import { errorMessage } from "../api.ts";
import { Alert } from "../components/Alert.tsx";
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

/**
 * Scopes of a template stored before they were checked that its clients cannot get: its admins are
 * told what to correct, and everyone that its apps will not get them.
 */
function RefusedScopes({ template }: { readonly template: Template }) {
  const { t } = useTranslation();
  const problems = templateScopeProblems(template);
  if (problems.length === 0) return null;
  const messages = problems.map(({ code, scope }) => errorMessage(t, code, [scope]));
  return <Alert message={[t("templates.appScopes.refused"), ...messages].join(" ")} />;
}

function TemplateDetails({ template }: { readonly template: Template }) {
  const { t, language } = useTranslation();
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
        <RefusedScopes template={template} />
        <TemplateEditor template={template} />
      </>
    );
  }
  return (
    <>
      <DocumentSummary
        document={template}
        fields={[
          [t("templates.fields.homepage"), template.homepageTemplate],
          [t("templates.fields.idScopes"), template.idScopes.join(" ")],
          [
            t("templates.appScopes.title"),
            template.appScopes.length > 0 && (
              <ul>
                {template.appScopes.map((scope) => (
                  <li key={scope.name}>
                    <span className="font-mono">{scope.name}</span>
                    {` – ${scopeDescription(scope, language)}`}
                  </li>
                ))}
              </ul>
            ),
          ],
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
      <RefusedScopes template={template} />
    </>
  );
}
