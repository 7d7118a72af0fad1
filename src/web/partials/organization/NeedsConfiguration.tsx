import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { ConfigurationNeeds } from "../../../common/app-configuration.ts";
import type { ConfiguredClient, Organization } from "../../../common/api/organization.ts";
import { Button } from "../../components/Button.tsx";
import { QueryError } from "../../components/QueryError.tsx";
import { applicationQuery, organizationQuery } from "./organizationApi.ts";
import { SaveOutcome, useOrganizationSave, type Secrets } from "./useOrganizationSave.tsx";
import { ValueFields } from "./ValueFields.tsx";

interface NeedsProps {
  readonly applicationId: string;
  readonly needs: ConfigurationNeeds;
  /** The template's variables, of which those in `needs` are asked for. */
  readonly variables: readonly { name: string; description: string }[];
  /** The app's clients, of which those in `needs` get their secret. */
  readonly clients: readonly ConfiguredClient[];
  readonly onSecrets: (secrets: Secrets) => void;
  /** The app has what it needed: this section goes, so the page says so. */
  readonly onSaved: () => void;
}

/**
 * The one place an app that needs configuration gets it, after its template changed: a value for
 * each new variable without a default and a secret for each new confidential client, in one save.
 */
export function NeedsConfiguration({
  organizationId,
  ...props
}: NeedsProps & { readonly organizationId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const organization = useQuery(organizationQuery(organizationId));
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-md border border-amber-400 bg-amber-50 p-4 text-slate-900 dark:border-amber-700 dark:bg-amber-950 dark:text-slate-100"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        {t("organizations.app.needs.title")}
      </h2>
      <p>{t("organizations.app.needs.hint")}</p>
      {organization.data ? (
        <NeedsForm organization={organization.data} {...props} />
      ) : organization.isError ? (
        <QueryError error={organization.error} />
      ) : (
        <p role="status">{t("app.loading")}</p>
      )}
    </section>
  );
}

function NeedsForm({
  organization,
  applicationId,
  needs,
  onSecrets,
  onSaved,
  ...props
}: NeedsProps & { readonly organization: Organization }) {
  const variables = props.variables.filter(({ name }) => needs.variables.includes(name));
  const clients = props.clients.filter(({ id }) => needs.secrets.includes(id));
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useOrganizationSave(organization, onSecrets);
  const [values, setValues] = useState<Record<string, string>>({});

  async function save(): Promise<void> {
    const saved = await state.save(
      (update) => ({
        ...update,
        applications: update.applications.map((app) =>
          "id" in app && app.id === applicationId
            ? {
                ...app,
                values: [
                  ...app.values,
                  ...variables.map(({ name }) => ({ name, value: values[name]?.trim() ?? "" })),
                ],
              }
            : app,
        ),
        rotateSecrets: needs.secrets,
      }),
      // Said by the app's page: this form goes once the app has what it needed.
      "",
      "needs",
    );
    if (!saved) return;
    onSaved();
    await queryClient.invalidateQueries({
      queryKey: applicationQuery(organization.id, applicationId).queryKey,
    });
  }

  return (
    <form
      noValidate
      onChange={state.clearMessage}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      className="flex flex-col gap-4"
    >
      {variables.length > 0 && (
        <fieldset className="flex flex-col gap-3">
          <legend className="font-medium">{t("organizations.app.needs.variables")}</legend>
          <ValueFields variables={variables} values={values} onChange={setValues} />
        </fieldset>
      )}
      {clients.length > 0 && (
        <div className="flex flex-col gap-1">
          <p className="font-medium">{t("organizations.app.needs.secrets")}</p>
          <ul className="list-disc pl-6">
            {clients.map((client) => (
              <li key={client.id} className="wrap-anywhere">
                {t(`organizations.app.kinds.${client.kind}`)}
                {client.description && ` · ${client.description}`}{" "}
                <span className="font-mono text-sm">({client.id})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div>
        <Button type="submit" {...state.button("needs")}>
          {t("organizations.app.needs.save")}
        </Button>
      </div>
      <SaveOutcome state={state} />
    </form>
  );
}
