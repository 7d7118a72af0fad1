import * as client from "openid-client";
import { organizationSchema, type Organization } from "../../src/common/api/organization.ts";
import type { Template } from "../../src/common/api/template.ts";
import type { TestApp } from "./apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./console.ts";
import { FlowDriver } from "./flow-driver.ts";

export type ConsoleUser = Awaited<ReturnType<typeof consoleSignUp>>;

const uriBase = "https://members.example";

/**
 * An organization the owner creates at the console, with one app whose public client people sign in
 * to. `templateFields` gives the template's clients (by default one public client redirecting to
 * `{uriBase}/callback`) and, where a test needs others, its name (else `${name} app`) and ID scopes (else
 * openid and profile); `values` gives the template variables besides `uriBase` and their values.
 */
export async function organizationWithApp(
  owner: ConsoleUser,
  name: string,
  templateFields: Record<string, unknown> = {
    clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"], additionalScopes: ["offline_access"] }],
  },
  values: Record<string, string> = {},
): Promise<{ organization: Organization; app: TestApp }> {
  const others = Object.entries(values).map(([variable, value]) => ({ name: variable, value }));
  const template = await postJson(owner.api, "/api/a/create", {
    name: `${name} app`,
    idScopes: ["openid", "profile"],
    variables: [{ name: "uriBase" }, ...others.map((other) => ({ name: other.name }))],
    ...templateFields,
  });
  // A refused template would leave the test without an app and failing far from the cause.
  if (template.status !== 201) throw new Error(`the template was refused: ${await template.text()}`);
  const { id: templateId } = (await template.json()) as { id: string };
  const created = await postJson(owner.api, "/api/o/create", { name });
  const { id } = (await created.json()) as { id: string };
  const updated = await postJson(owner.api, `/api/o/update/${id}`, {
    version: 1,
    name,
    admins: [],
    applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }, ...others] }],
  });
  const organization = organizationSchema.parse(await updated.json());
  const application = organization.applications?.[0];
  const app: TestApp = {
    organizationId: id,
    applicationId: application?.id ?? "",
    clientId: application?.clientsPublic[0]?.id ?? "",
    redirectUri: `${uriBase}/callback`,
  };
  return { organization, app };
}

/**
 * An organization of `owner` whose app has one backend client, told at `backchannel` when people sign
 * out (back-channel logout); returns the app with that client, and the client's authentication with its
 * secret. `appName` and `idScopes` replace the template defaults of `organizationWithApp`;
 * `backendClient` adds settings to the client.
 */
export async function organizationWithAppToldOfLogouts(
  owner: ConsoleUser,
  name: string,
  backchannel: string,
  {
    appName,
    idScopes,
    backendClient = {},
  }: { appName?: string; idScopes?: string[]; backendClient?: Record<string, unknown> } = {},
): Promise<{ app: TestApp; auth: client.ClientAuth }> {
  const templateFields = {
    ...(appName === undefined ? {} : { name: appName }),
    ...(idScopes === undefined ? {} : { idScopes }),
    clientsBackend: [
      {
        ...backendClient,
        redirectUriTemplates: ["{uriBase}/callback"],
        backchannelLogoutUriTemplate: "{backchannel}",
      },
    ],
  };
  const { organization, app } = await organizationWithApp(owner, name, templateFields, { backchannel });
  const clientId = organization.applications?.[0]?.clientsBackend[0]?.id ?? "";
  const secret = organization.secrets?.find((made) => made.clientId === clientId)?.secret ?? "";
  return { app: { ...app, clientId }, auth: client.ClientSecretBasic(secret) };
}

/** A person signs up (or in again) to the app with a password and their first identity; returns its tokens. */
export async function signInToApp(base: string, app: TestApp, username: string) {
  const driver = await FlowDriver.start(base, app, {
    scope: "openid profile offline_access",
    prompt: "consent",
  });
  return signInThrough(driver, username);
}

/** The same through a flow already started, however its request was sent. */
export async function signInThrough(driver: FlowDriver, username: string) {
  await driver.step("passwordStart", { emailOrUsername: username });
  await driver.step("passwordComplete", { password: `${username}'s passphrase` });
  const [identity] = await driver.identities();
  await driver.step("chooseIdentity", { identity: { id: identity?.id } });
  await driver.step("redirect");
  const tokens = await driver.exchange(await driver.returnToApp());
  return { driver, tokens, identityId: identity?.id ?? "" };
}

export async function readOrganization(api: ConsoleApi, id: string): Promise<Organization> {
  return organizationSchema.parse(await (await api(`/api/o/${id}`)).json());
}

/** Saves the organization as it is, with the changes given. */
export function updateOrganization(
  api: ConsoleApi,
  organization: Organization,
  changes: Record<string, unknown>,
) {
  return postJson(api, `/api/o/update/${organization.id}`, {
    version: organization.version,
    name: organization.name,
    description: organization.description,
    admins: organization.admins ?? [],
    applications: (organization.applications ?? []).map(({ id, active, values }) => ({ id, active, values })),
    ...changes,
  });
}

/**
 * The client the organization's application made from the template's client with this description,
 * and its secret as the organization's answer showed it once (none for a public client).
 */
export function clientByDescription(
  organization: Organization,
  template: Template,
  description: string,
): { clientId: string; secret: string } {
  const application = organization.applications?.[0];
  const all = [...template.clientsPublic, ...template.clientsBackend, ...template.clientsService];
  const templateClientId = all.find((candidate) => candidate.description === description)?.id;
  const clients = [
    ...(application?.clientsPublic ?? []),
    ...(application?.clientsBackend ?? []),
    ...(application?.clientsService ?? []),
  ];
  const clientId = clients.find((candidate) => candidate.templateClientId === templateClientId)?.id ?? "";
  const secret = organization.secrets?.find((candidate) => candidate.clientId === clientId)?.secret ?? "";
  return { clientId, secret };
}
