import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Organization } from "../../../common/api/organization.ts";
import { pathFor } from "../../../common/routes.ts";
import { Button } from "../../components/Button.tsx";
import { Labels } from "../../components/Labels.tsx";
import { QueryError } from "../../components/QueryError.tsx";
import { templateQuery, templatesQuery } from "../template/templateApi.ts";
import { SaveOutcome, type OrganizationSave } from "./AddedApplications.tsx";
import { ValueFields } from "./ValueFields.tsx";

/** All application templates; Add asks for the values of the template's variables. */
export function AvailableApplications({
  organization,
  state,
}: {
  readonly organization: Organization;
  readonly state: OrganizationSave;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const templates = useQuery(templatesQuery);
  const [adding, setAdding] = useState<string | null>(null);
  // Focus returns to the Add button when its form closes.
  const [closed, setClosed] = useState<string | null>(null);
  const added = new Set((organization.applications ?? []).map((application) => application.templateId));

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-t border-slate-200 pt-6">
      <h2 id={headingId} className="text-xl font-semibold">
        {t("organizations.apps.available")}
      </h2>
      {templates.data === undefined ? (
        templates.isError ? (
          <QueryError error={templates.error} />
        ) : (
          <p role="status">{t("app.loading")}</p>
        )
      ) : templates.data.length === 0 ? (
        <p className="text-slate-700">{t("organizations.apps.noTemplates")}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {templates.data.map((template) => (
            <li
              key={template.id}
              className="flex flex-col gap-3 rounded-md border border-slate-200 px-4 py-3"
            >
              <div className="flex flex-wrap items-center gap-3">
                <p className="min-w-0 flex-1 font-medium break-words">
                  <Link
                    to={pathFor("ApplicationTemplateGet", { id: template.id })}
                    className="text-blue-800 underline underline-offset-4 hover:text-blue-900"
                  >
                    {template.name}
                  </Link>
                  <Labels labels={added.has(template.id) ? [t("common.labels.added")] : []} />
                </p>
                {adding !== template.id && (
                  <Button
                    variant="secondary"
                    aria-label={`${t("organizations.apps.add")}: ${template.name}`}
                    autoFocus={closed === template.id}
                    onClick={() => setAdding(template.id)}
                  >
                    {t("organizations.apps.add")}
                  </Button>
                )}
              </div>
              {adding === template.id && (
                <AddApplicationForm
                  templateId={template.id}
                  state={state}
                  onDone={() => {
                    setAdding(null);
                    setClosed(template.id);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <SaveOutcome state={state} savedMessage={t("organizations.apps.updated")} />
    </section>
  );
}

function AddApplicationForm({
  templateId,
  state,
  onDone,
}: {
  readonly templateId: string;
  readonly state: OrganizationSave;
  readonly onDone: () => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const template = useQuery(templateQuery(templateId));
  const [values, setValues] = useState<Record<string, string>>({});
  if (template.data === undefined)
    return template.isError ? <QueryError error={template.error} /> : <p role="status">{t("app.loading")}</p>;
  const variables = template.data.variables;

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void state
          .save((update) => ({
            ...update,
            applications: [
              ...update.applications,
              {
                templateId,
                active: true,
                values: variables.map((variable) => ({
                  name: variable.name,
                  value: values[variable.name] ?? "",
                })),
              },
            ],
          }))
          .then((saved) => {
            if (saved) onDone();
          });
      }}
      className="flex flex-col gap-3"
    >
      <h3 id={headingId} className="font-semibold">
        {t("organizations.apps.addTitle", { name: template.data.name })}
      </h3>
      {variables.length === 0 && (
        <p className="text-sm text-slate-700">{t("organizations.apps.noVariables")}</p>
      )}
      <ValueFields variables={variables} values={values} onChange={setValues} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={state.busy}>
          {t("organizations.apps.add")}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
