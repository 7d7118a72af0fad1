import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import type { Organization } from "../../../common/api/organization.ts";
import type { DocumentSummary } from "../../../common/api/summary.ts";
import { pathFor } from "../../../common/routes.ts";
import { Button } from "../../components/Button.tsx";
import { Labels } from "../../components/Labels.tsx";
import { QueryError } from "../../components/QueryError.tsx";
import { Section } from "../../components/Section.tsx";
import { templateQuery, templatesQuery } from "../template/templateApi.ts";
import { useConfirmation } from "./useConfirmation.tsx";
import {
  SaveOutcome,
  useOrganizationSave,
  type OrganizationSave,
  type Secrets,
} from "./useOrganizationSave.tsx";
import { ValueFields } from "./ValueFields.tsx";

/** All application templates; Add asks for the values of the template's variables. */
export function AvailableApplications({
  organization,
  onSecrets,
}: {
  readonly organization: Organization;
  readonly onSecrets: (secrets: Secrets) => void;
}) {
  const { t } = useTranslation();
  const templates = useQuery(templatesQuery);

  return (
    <Section title={t("organizations.apps.available")}>
      {templates.data === undefined ? (
        templates.isError ? (
          <QueryError error={templates.error} />
        ) : (
          <p role="status">{t("app.loading")}</p>
        )
      ) : templates.data.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">{t("organizations.apps.noTemplates")}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {templates.data.map((template) => (
            <AvailableApplication
              key={template.id}
              organization={organization}
              template={template}
              onSecrets={onSecrets}
            />
          ))}
        </ul>
      )}
    </Section>
  );
}

/**
 * A template to add. One the organization has already is added again only after a confirmation
 * naming it: a second instance is legitimate (a second site of the same app) but usually a mistake.
 */
function AvailableApplication({
  organization,
  template,
  onSecrets,
}: {
  readonly organization: Organization;
  readonly template: DocumentSummary;
  readonly onSecrets: (secrets: Secrets) => void;
}) {
  const { t } = useTranslation();
  const state = useOrganizationSave(organization, onSecrets);
  const confirmation = useConfirmation();
  const [adding, setAdding] = useState(false);
  // Focus returns to the Add button when its form closes.
  const [closed, setClosed] = useState(false);
  const instances = (organization.applications ?? []).filter(
    (application) => application.templateId === template.id,
  ).length;
  const open = () => {
    state.clearMessage();
    setAdding(true);
  };

  return (
    <li className="flex flex-col gap-3 rounded-md border border-slate-200 px-4 py-3 dark:border-slate-700">
      <div className="flex flex-wrap items-center gap-3">
        <p className="min-w-0 flex-1 basis-48 font-medium break-words">
          <Link
            to={pathFor("ApplicationTemplateGet", { id: template.id })}
            className="text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
          >
            {template.name}
          </Link>
          <Labels labels={instances > 0 ? [t("common.labels.added")] : []} />
        </p>
        {!adding && (
          <Button
            variant="secondary"
            aria-label={`${t("organizations.apps.add")}: ${template.name}`}
            autoFocus={closed}
            onClick={() =>
              instances > 0
                ? confirmation.ask({
                    title: t("organizations.apps.duplicateConfirm.title", { name: template.name }),
                    message: t("organizations.apps.duplicateConfirm.message", {
                      name: template.name,
                      count: instances,
                    }),
                    confirmLabel: t("organizations.apps.duplicateConfirm.confirm"),
                    onConfirm: open,
                  })
                : open()
            }
          >
            {t("organizations.apps.add")}
          </Button>
        )}
      </div>
      {adding && (
        <AddApplicationForm
          templateId={template.id}
          state={state}
          onDone={() => {
            setAdding(false);
            setClosed(true);
          }}
        />
      )}
      {!adding && <SaveOutcome state={state} />}
      {confirmation.dialog}
    </li>
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
  const { variables, name } = template.data;
  // A variable's default is offered as its value.
  const shown = Object.fromEntries(
    variables.map((variable) => [variable.name, values[variable.name] ?? variable.default ?? ""]),
  );

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void state
          .save(
            (update) => ({
              ...update,
              applications: [
                ...update.applications,
                {
                  templateId,
                  active: true,
                  values: variables.map((variable) => ({
                    name: variable.name,
                    value: shown[variable.name] ?? "",
                  })),
                },
              ],
            }),
            t("organizations.apps.addedMessage", { name }),
            "add",
          )
          .then((saved) => {
            if (saved) onDone();
          });
      }}
      className="flex flex-col gap-3"
    >
      <h3 id={headingId} className="font-semibold">
        {t("organizations.apps.addTitle", { name })}
      </h3>
      {variables.length === 0 && (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("organizations.apps.noVariables")}</p>
      )}
      <ValueFields variables={variables} values={shown} onChange={setValues} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" {...state.button("add")}>
          {t("organizations.apps.add")}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t("common.cancel")}
        </Button>
      </div>
      <SaveOutcome state={state} />
    </form>
  );
}
