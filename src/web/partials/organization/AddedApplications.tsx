import { useId, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import type {
  Organization,
  OrganizationApplication,
  OrganizationUpdate,
} from "../../../common/api/organization.ts";
import { configurationNeeds, needsConfiguration } from "../../../common/app-configuration.ts";
import { pathFor } from "../../../common/routes.ts";
import { useBuiltInNames } from "../../builtInNames.ts";
import { Button } from "../../components/Button.tsx";
import { CopyButton } from "../../components/CopyButton.tsx";
import { Identifier } from "../../components/Identifier.tsx";
import { Labels } from "../../components/Labels.tsx";
import { Section } from "../../components/Section.tsx";
import { SecretField } from "./SecretField.tsx";
import { useConfirmation } from "./useConfirmation.tsx";
import { SaveOutcome, useOrganizationSave, type Secrets } from "./useOrganizationSave.tsx";
import { ValueFields } from "./ValueFields.tsx";

type ExistingApplication = Extract<OrganizationUpdate["applications"][number], { id: string }>;

/** The organization's applications, each with its clients, configuration and status. */
export function AddedApplications({
  organization,
  secrets,
  onSecrets,
}: {
  readonly organization: Organization;
  readonly secrets: Secrets;
  readonly onSecrets: (secrets: Secrets) => void;
}) {
  const { t } = useTranslation();
  const applications = organization.applications ?? [];
  // Said here: the removed application's card is gone.
  const [removed, setRemoved] = useState("");
  return (
    <Section title={t("organizations.apps.added")}>
      {applications.length === 0 && (
        <p className="text-slate-700 dark:text-slate-300">{t("organizations.apps.none")}</p>
      )}
      <ul className="flex flex-col gap-4">
        {applications.map((application) => (
          <AddedApplication
            key={application.id}
            organization={organization}
            application={application}
            secrets={secrets}
            onSecrets={onSecrets}
            onRemoved={setRemoved}
          />
        ))}
      </ul>
      <p role="status" className="font-medium text-green-800 dark:text-green-300">
        {removed && t("organizations.apps.removed", { name: removed })}
      </p>
    </Section>
  );
}

function AddedApplication({
  organization,
  application,
  secrets,
  onSecrets,
  onRemoved,
}: {
  readonly organization: Organization;
  readonly application: OrganizationApplication;
  readonly secrets: Secrets;
  readonly onSecrets: (secrets: Secrets) => void;
  readonly onRemoved: (name: string) => void;
}) {
  const { t } = useTranslation();
  const nameId = useId();
  const state = useOrganizationSave(organization, onSecrets);
  const confirmation = useConfirmation();
  const [values, setValues] = useState(() =>
    Object.fromEntries(application.values.map(({ name, value }) => [name, value])),
  );
  const template = application.applicationTemplate;
  const names = useBuiltInNames();
  const name = names.application(application.id, template.name);

  /** Saves a change of this application (`null` removes it) with the button of `key` busy. */
  const changeThis = (
    change: (app: ExistingApplication) => ExistingApplication | null,
    done: string,
    key: string,
  ) =>
    state.save(
      (update) => ({
        ...update,
        applications: update.applications.flatMap((app) => {
          if (!("id" in app) || app.id !== application.id) return [app];
          const changed = change(app);
          return changed === null ? [] : [changed];
        }),
      }),
      done,
      key,
    );

  const toggle = () =>
    void changeThis(
      (app) => ({ ...app, active: !app.active }),
      t(application.active ? "organizations.apps.disabled" : "organizations.apps.activated", { name }),
      "toggle",
    );

  const clients: { label: string; id: string; confidential: boolean }[] = [
    ...application.clientsPublic.map(({ id }) => ({
      label: t("organizations.apps.publicClientId"),
      id,
      confidential: false,
    })),
    ...application.clientsBackend.map(({ id }) => ({
      label: t("organizations.apps.backendClientId"),
      id,
      confidential: true,
    })),
    ...application.clientsService.map(({ id }) => ({
      label: t("organizations.apps.serviceClientId"),
      id,
      confidential: true,
    })),
  ];

  return (
    <li
      aria-labelledby={nameId}
      className="flex flex-col gap-4 rounded-md border border-slate-200 p-4 dark:border-slate-700"
    >
      <h3 id={nameId} className="text-lg font-semibold break-words">
        {name}
        <Labels
          labels={[
            application.active ? t("common.labels.active") : t("common.labels.disabled"),
            ...(needsConfiguration(configurationNeeds(application))
              ? [t("organizations.app.needs.label")]
              : []),
          ]}
        />
      </h3>
      <dl className="flex flex-col gap-3">
        {clients.map(({ label, id, confidential }) => (
          <div key={id} className="flex flex-col gap-1">
            <dt className="font-medium">{label}</dt>
            <dd className="flex flex-col gap-2">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                <Identifier value={id} />
                <CopyButton value={id} label={t("organizations.apps.copyClientId")} />
                {confidential && (
                  <Button
                    variant="secondary"
                    {...state.button(`rotate:${id}`)}
                    aria-label={`${t("organizations.apps.rotateSecret")}: ${id}`}
                    onClick={() =>
                      confirmation.ask({
                        title: t("organizations.apps.rotateConfirm.title", { name }),
                        message: t("organizations.apps.rotateConfirm.message", { clientId: id }),
                        confirmLabel: t("organizations.apps.rotateSecret"),
                        destructive: true,
                        onConfirm: () =>
                          void state.save(
                            (update) => ({ ...update, rotateSecrets: [id] }),
                            t("organizations.apps.rotated"),
                            `rotate:${id}`,
                          ),
                      })
                    }
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
      <p>
        <Link
          to={pathFor("OrganizationApp", { id: organization.id, appId: application.id })}
          aria-describedby={nameId}
          className="text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
        >
          {t("organizations.apps.setup")}
        </Link>
      </p>
      <form
        noValidate
        aria-labelledby={nameId}
        onChange={state.clearMessage}
        onSubmit={(event) => {
          event.preventDefault();
          void changeThis(
            (app) => ({
              ...app,
              // A value still missing after a template change may stay missing here (the app's
              // page asks for it); a value cleared is refused.
              values: template.variables.flatMap((variable) => {
                const value = values[variable.name] ?? "";
                const lacking = value === "" && !app.values.some(({ name }) => name === variable.name);
                return lacking ? [] : [{ name: variable.name, value }];
              }),
            }),
            t("organizations.apps.configurationSaved"),
            "values",
          );
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
            <Button type="submit" {...state.button("values")}>
              {t("organizations.apps.saveConfiguration")}
            </Button>
          )}
          <Button
            variant="secondary"
            {...state.button("toggle")}
            aria-describedby={nameId}
            onClick={() =>
              application.active
                ? confirmation.ask({
                    title: t("organizations.apps.disableConfirm.title", { name }),
                    message: t("organizations.apps.disableConfirm.message"),
                    confirmLabel: t("organizations.disable"),
                    onConfirm: toggle,
                  })
                : toggle()
            }
          >
            {application.active ? t("organizations.disable") : t("organizations.activate")}
          </Button>
          <Button
            variant="secondary"
            {...state.button("remove")}
            aria-describedby={nameId}
            onClick={() =>
              confirmation.ask({
                title: t("organizations.apps.removeConfirm.title", { name }),
                message: t("organizations.apps.removeConfirm.message"),
                confirmLabel: t("common.remove"),
                destructive: true,
                onConfirm: () =>
                  void changeThis(() => null, "", "remove").then((removed) => {
                    if (removed) onRemoved(name);
                  }),
              })
            }
          >
            {t("common.remove")}
          </Button>
        </div>
        <SaveOutcome state={state} />
      </form>
      {confirmation.dialog}
    </li>
  );
}
