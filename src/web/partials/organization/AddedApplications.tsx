import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type {
  Organization,
  OrganizationApplication,
  OrganizationUpdate,
} from "../../../common/api/organization.ts";
import { pathFor } from "../../../common/routes.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { Labels } from "../../components/Labels.tsx";
import { SecretField } from "./SecretField.tsx";
import { updateOf, updateOrganization } from "./organizationApi.ts";
import { ValueFields } from "./ValueFields.tsx";

type Secrets = Record<string, string>;
type ExistingApplication = Extract<OrganizationUpdate["applications"][number], { id: string }>;

/** Runs an organization update for a section: the shared success message, error and new secrets. */
export function useOrganizationSave(organization: Organization, onSecrets: (secrets: Secrets) => void) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function save(change: (update: OrganizationUpdate) => OrganizationUpdate): Promise<boolean> {
    if (busy) return false;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const updated = await updateOrganization(queryClient, organization.id, change(updateOf(organization)));
      if (updated.secrets && updated.secrets.length > 0)
        onSecrets(Object.fromEntries(updated.secrets.map(({ clientId, secret }) => [clientId, secret])));
      setSaved(true);
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.code : "unexpected");
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, saved, save, clearSaved: () => setSaved(false) };
}

export type OrganizationSave = ReturnType<typeof useOrganizationSave>;

/** The outcome of a section's last save. */
export function SaveOutcome({
  state,
  savedMessage,
}: {
  readonly state: OrganizationSave;
  readonly savedMessage: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {state.error !== null && <Alert message={errorMessage(t, state.error)} />}
      <p role="status" className="font-medium text-green-800">
        {state.saved ? savedMessage : ""}
      </p>
    </>
  );
}

/** The organization's applications, each with its configuration, clients and status. */
export function AddedApplications({
  organization,
  state,
  secrets,
}: {
  readonly organization: Organization;
  readonly state: OrganizationSave;
  readonly secrets: Secrets;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const applications = organization.applications ?? [];
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-t border-slate-200 pt-6">
      <h2 id={headingId} className="text-xl font-semibold">
        {t("organizations.apps.added")}
      </h2>
      {applications.length === 0 && <p className="text-slate-700">{t("organizations.apps.none")}</p>}
      <ul className="flex flex-col gap-4">
        {applications.map((application) => (
          <AddedApplication
            key={application.id}
            organization={organization}
            application={application}
            state={state}
            secrets={secrets}
          />
        ))}
      </ul>
      <SaveOutcome state={state} savedMessage={t("organizations.apps.updated")} />
    </section>
  );
}

function AddedApplication({
  organization,
  application,
  state,
  secrets,
}: {
  readonly organization: Organization;
  readonly application: OrganizationApplication;
  readonly state: OrganizationSave;
  readonly secrets: Secrets;
}) {
  const { t } = useTranslation();
  const nameId = useId();
  const [values, setValues] = useState(() =>
    Object.fromEntries(application.values.map(({ name, value }) => [name, value])),
  );
  const template = application.applicationTemplate;
  const name = template.name;
  // Removing deletes the application's clients: asked once more.
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  /** Saves a change of this application; `null` removes it. */
  const changeThis = (change: (app: ExistingApplication) => ExistingApplication | null) =>
    state.save((update) => ({
      ...update,
      applications: update.applications.flatMap((app) => {
        if (!("id" in app) || app.id !== application.id) return [app];
        const changed = change(app);
        return changed === null ? [] : [changed];
      }),
    }));

  const clients: [string, string, boolean][] = [
    ...application.clientsPublic.map(({ id }): [string, string, boolean] => [
      t("organizations.apps.publicClientId"),
      id,
      false,
    ]),
    ...application.clientsBackend.map(({ id }): [string, string, boolean] => [
      t("organizations.apps.backendClientId"),
      id,
      true,
    ]),
    ...application.clientsService.map(({ id }): [string, string, boolean] => [
      t("organizations.apps.serviceClientId"),
      id,
      true,
    ]),
  ];

  return (
    <li aria-labelledby={nameId} className="flex flex-col gap-4 rounded-md border border-slate-200 p-4">
      <h3 id={nameId} className="text-lg font-semibold break-words">
        {application.active ? (
          <Link
            to={pathFor("OrganizationApp", { id: organization.id, appId: application.id })}
            className="text-blue-800 underline underline-offset-4 hover:text-blue-900"
          >
            {name}
          </Link>
        ) : (
          name
        )}
        <Labels labels={[application.active ? t("common.labels.active") : t("common.labels.disabled")]} />
      </h3>
      <dl className="flex flex-col gap-3">
        {clients.map(([label, id, secret]) => (
          <div key={id} className="flex flex-col gap-1">
            <dt className="font-medium">{label}</dt>
            <dd className="flex flex-col gap-2">
              <div className="flex flex-wrap items-center gap-3">
                <span className="font-mono break-all">{id}</span>
                {secret && (
                  <Button
                    variant="secondary"
                    disabled={state.busy}
                    aria-label={`${t("organizations.apps.rotateSecret")}: ${id}`}
                    onClick={() => void state.save((update) => ({ ...update, rotateSecrets: [id] }))}
                  >
                    {t("organizations.apps.rotateSecret")}
                  </Button>
                )}
              </div>
              {secrets[id] !== undefined && <SecretField clientId={id} secret={secrets[id]} />}
            </dd>
          </div>
        ))}
      </dl>
      <form
        noValidate
        aria-labelledby={nameId}
        onChange={state.clearSaved}
        onSubmit={(event) => {
          event.preventDefault();
          void changeThis((app) => ({
            ...app,
            values: template.variables.map((variable) => ({
              name: variable.name,
              value: values[variable.name] ?? "",
            })),
          }));
        }}
        className="flex flex-col gap-4"
      >
        {template.variables.length > 0 && (
          <fieldset className="flex flex-col gap-3">
            <legend className="font-medium">{t("organizations.apps.configuration")}</legend>
            <ValueFields variables={template.variables} values={values} onChange={setValues} />
          </fieldset>
        )}
        <div className="flex flex-wrap gap-3">
          {template.variables.length > 0 && (
            <Button type="submit" disabled={state.busy}>
              {t("common.update")}
            </Button>
          )}
          <Button
            variant="secondary"
            disabled={state.busy}
            aria-describedby={nameId}
            onClick={() => void changeThis((app) => ({ ...app, active: !app.active }))}
          >
            {application.active ? t("organizations.disable") : t("organizations.activate")}
          </Button>
          {!confirmingRemoval && (
            <Button
              variant="secondary"
              disabled={state.busy}
              aria-describedby={nameId}
              onClick={() => setConfirmingRemoval(true)}
            >
              {t("common.remove")}
            </Button>
          )}
        </div>
        {confirmingRemoval && (
          <div
            role="group"
            aria-labelledby={`${nameId}-confirm`}
            className="flex flex-wrap items-center gap-3"
          >
            <p id={`${nameId}-confirm`} className="font-medium">
              {t("organizations.apps.confirmRemove", { name })}
            </p>
            <Button autoFocus disabled={state.busy} onClick={() => void changeThis(() => null)}>
              {t("common.remove")}
            </Button>
            <Button variant="secondary" onClick={() => setConfirmingRemoval(false)}>
              {t("common.cancel")}
            </Button>
          </div>
        )}
      </form>
    </li>
  );
}
