import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { clientCacheMs } from "../src/common/limits.ts";
import {
  organizationSchema,
  publicApplicationSchema,
  type Organization,
} from "../src/common/api/organization.ts";
import { templateSchema, type Template } from "../src/common/api/template.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import {
  clientByDescription,
  readOrganization,
  signInThrough,
  updateOrganization,
} from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// An organization's app follows its template: a saved template reaches every added app with the same
// client IDs and secrets; what the organization must give marks the app "needs configuration"; a
// removed client is gone with its tokens. Both sides' activity tells of it.

const uriBase = "https://notes.example";

const notesTemplate = {
  name: "Notes",
  idScopes: ["openid", "profile"],
  variables: [{ name: "uriBase" }],
  clientsBackend: [
    {
      description: "web",
      redirectUriTemplates: ["{uriBase}/callback"],
      additionalScopes: ["offline_access"],
    },
  ],
  clientsService: [{ description: "sync" }],
};

interface Added {
  template: Template;
  organization: Organization;
}

describe.each(storeEngines)("an organization's app following its template, on $name", ({ url }) => {
  let server: TestServer;
  let developer: ConsoleApi;
  let admin: ConsoleApi;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    ({ api: developer } = await consoleSignUp(server.url, "dora"));
    ({ api: admin } = await consoleSignUp(server.url, "oskar"));
  });
  afterAll(() => server.dispose());

  /** The developer's template, added by the admin's new organization. */
  async function added(name: string): Promise<Added> {
    const created = await postJson(developer, "/api/a/create", { ...notesTemplate, name });
    expect(created.status).toBe(201);
    const { id: templateId } = (await created.json()) as { id: string };
    const { id } = (await (await postJson(admin, "/api/o/create", { name: `${name} org` })).json()) as {
      id: string;
    };
    const saved = await postJson(admin, `/api/o/update/${id}`, {
      version: 1,
      name: `${name} org`,
      admins: [],
      applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }] }],
    });
    expect(saved.status).toBe(200);
    const template = templateSchema.parse(await (await developer(`/api/a/${templateId}`)).json());
    return { template, organization: organizationSchema.parse(await saved.json()) };
  }

  /** The developer saves the template with these fields changed. */
  async function saveTemplate(template: Template, changes: Record<string, unknown>): Promise<Template> {
    const { id, canUpdate: _canUpdate, organizationsUsing: _using, ...fields } = template;
    const saved = await postJson(developer, `/api/a/update/${id}`, { ...fields, ...changes });
    expect(saved.status, await saved.clone().text()).toBe(200);
    return templateSchema.parse(await saved.json());
  }

  const discover = (clientId: string, secret: string) =>
    client.discovery(new URL(server.issuer), clientId, undefined, client.ClientSecretBasic(secret));

  async function signIn(clientId: string, secret: string, redirectUri: string, username: string) {
    const app: TestApp = { clientId, redirectUri, organizationId: "", applicationId: "" };
    const driver = await FlowDriver.start(
      server.url,
      app,
      { scope: "openid profile offline_access", prompt: "consent" },
      client.ClientSecretBasic(secret),
    );
    return (await signInThrough(driver, username)).tokens;
  }

  const clientIds = (organization: Organization) =>
    (organization.applications ?? []).flatMap((application) =>
      [...application.clientsPublic, ...application.clientsBackend, ...application.clientsService].map(
        ({ id }) => id,
      ),
    );

  it("reaches the added app with the same client IDs and secret, and a relying party keeps working across it", async () => {
    const { template, organization } = await added("Journal");
    const web = clientByDescription(organization, template, "web");
    const before = await signIn(web.clientId, web.secret, `${uriBase}/callback`, "rita");
    expect(template.organizationsUsing).toBe(1);

    const saved = await saveTemplate(template, {
      name: "Journal 2",
      idScopes: ["openid", "profile", "email"],
      clientsBackend: [
        {
          ...template.clientsBackend[0],
          redirectUriTemplates: ["{uriBase}/callback", "{uriBase}/signed-in"],
        },
      ],
    });
    expect(saved.organizationsUsing).toBe(1);

    const after = await readOrganization(admin, organization.id);
    expect(clientIds(after)).toEqual(clientIds(organization));
    expect(after.applications?.[0]?.applicationTemplate.name).toBe("Journal 2");

    // The refresh token from before the change still works, with the same secret.
    const config = await discover(web.clientId, web.secret);
    const refreshed = await client.refreshTokenGrant(config, before.refresh_token ?? "");
    expect(refreshed.access_token).toBeTruthy();
    // The new redirect URI and scope work for the same client and secret.
    const again = await signIn(web.clientId, web.secret, `${uriBase}/signed-in`, "rita");
    expect(again.scope?.split(" ")).toContain("profile");
    const withEmail = await FlowDriver.start(
      server.url,
      { clientId: web.clientId, redirectUri: `${uriBase}/signed-in`, organizationId: "", applicationId: "" },
      { scope: "openid email", prompt: "consent" },
      client.ClientSecretBasic(web.secret),
    );
    const emailTokens = (await signInThrough(withEmail, "rita")).tokens;
    expect(emailTokens.scope?.split(" ")).toContain("email");

    // Both sides record it: the developer changed the template, the organization's app followed.
    const developerActivity = activityPageSchema.parse(await (await developer("/api/activity")).json());
    expect(developerActivity.items[0]).toMatchObject({
      type: "applicationTemplateUpdate",
      applicationTemplates: [{ id: template.id }],
    });
    const organizationActivity = activityPageSchema.parse(
      await (await admin(`/api/o/activity/${organization.id}`)).json(),
    );
    const followed = organizationActivity.items.find((entry) => entry.type === "applicationTemplateFollowed");
    expect(followed).toMatchObject({
      applications: [{ organizationId: organization.id, applicationId: after.applications?.[0]?.id }],
      applicationTemplates: [{ id: template.id, name: "Journal 2" }],
      changes: [{ kind: "otherData", fields: ["name", "idScopes", "clientsBackend"] }],
    });
    // The developer learns of no organization; the organization's admins did nothing themselves.
    expect(JSON.stringify(developerActivity)).not.toContain(organization.id);
  });

  it("marks the app as needing configuration for a new variable without a default and a new client, until given", async () => {
    const { template, organization } = await added("Ledger");
    const sync = clientByDescription(organization, template, "sync");
    const syncConfig = await discover(sync.clientId, sync.secret);

    await saveTemplate(template, {
      variables: [{ name: "uriBase" }, { name: "apiBase" }, { name: "region", default: "eu" }],
      clientsService: [...template.clientsService, { description: "reports" }],
      homepageTemplate: "{apiBase}/home",
    });
    const after = await readOrganization(admin, organization.id);
    const application = after.applications?.[0];
    const reports = application?.clientsService.find(({ id }) => id !== sync.clientId)?.id ?? "";
    expect(application?.values).toEqual([
      { name: "uriBase", value: uriBase },
      { name: "region", value: "eu" },
    ]);
    const appPath = `/api/o/app/${organization.id}/${application?.id}`;
    const needing = publicApplicationSchema.parse(await (await admin(appPath)).json());
    expect(needing.needs).toEqual({ variables: ["apiBase"], secrets: [reports] });
    // Until then the app keeps working with what it has; the homepage waits for its value.
    expect(needing.homepage).toBeUndefined();
    expect((await client.clientCredentialsGrant(syncConfig)).access_token).toBeTruthy();
    // Another change of the organization saves as before, and an empty value is refused.
    expect((await updateOrganization(admin, after, { description: "books" })).status).toBe(200);
    const current = await readOrganization(admin, organization.id);
    const given = (value: string) => ({
      applications: [
        {
          id: application?.id,
          active: true,
          values: [...(application?.values ?? []), { name: "apiBase", value }],
        },
      ],
    });
    const empty = await updateOrganization(admin, current, given(""));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "invalidValues" });

    const configured = await updateOrganization(admin, current, {
      ...given("https://api.notes.example"),
      rotateSecrets: [reports],
    });
    expect(configured.status).toBe(200);
    const secret = organizationSchema.parse(await configured.json()).secrets?.[0];
    expect(secret?.clientId).toBe(reports);
    const done = publicApplicationSchema.parse(await (await admin(appPath)).json());
    expect(done.needs).toEqual({ variables: [], secrets: [] });
    expect(done.homepage).toBe("https://api.notes.example/home");
    const reportsConfig = await discover(reports, secret?.secret ?? "");
    expect((await client.clientCredentialsGrant(reportsConfig)).access_token).toBeTruthy();
  });

  it("removes a client the template dropped from every app: its client credentials and refresh tokens stop working", async () => {
    const first = await added("Diary");
    const web = clientByDescription(first.organization, first.template, "web");
    const sync = clientByDescription(first.organization, first.template, "sync");
    const tokens = await signIn(web.clientId, web.secret, `${uriBase}/callback`, "rita");
    const webConfig = await discover(web.clientId, web.secret);
    const syncConfig = await discover(sync.clientId, sync.secret);
    expect((await client.clientCredentialsGrant(syncConfig)).access_token).toBeTruthy();

    const saved = await saveTemplate(first.template, { clientsBackend: [], clientsService: [] });
    expect(saved.organizationsUsing).toBe(1);
    const after = await readOrganization(admin, first.organization.id);
    expect(clientIds(after)).toEqual([]);

    // The engine no longer knows the clients: it refuses their authentication.
    const refused = { status: 401, cause: [{ parameters: { error: "invalid_client" } }] };
    await expect(client.clientCredentialsGrant(syncConfig)).rejects.toMatchObject(refused);
    await expect(client.refreshTokenGrant(webConfig, tokens.refresh_token ?? "")).rejects.toMatchObject(
      refused,
    );
  });

  it("counts the organizations using it for its admins only", async () => {
    const { template } = await added("Planner");
    const other = await consoleSignUp(server.url, "petra");
    const seen = templateSchema.parse(await (await other.api(`/api/a/${template.id}`)).json());
    expect(seen.organizationsUsing).toBeUndefined();
    expect(template.organizationsUsing).toBe(1);
  });

  it("refuses a variable default that makes a URI insecure, at the URI's field", async () => {
    const { template } = await added("Atlas");
    const { id, canUpdate: _canUpdate, organizationsUsing: _using, ...fields } = template;
    const answer = await postJson(developer, `/api/a/update/${id}`, {
      ...fields,
      variables: [{ name: "uriBase", default: "http://atlas.example" }],
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: "invalidRedirectUri",
      field: "clientsBackend.0.redirectUriTemplates",
    });
  });

  // Last: the second instance, started with an issuer of its own, points the console's client at itself.
  it("reaches another instance of the deployment within the moment it keeps clients", async () => {
    const second = await startTestServer({ ...(url ? { postgresUrl: url } : {}), shareStoreOf: server });
    try {
      const { template, organization } = await added("Almanac");
      const web = clientByDescription(organization, template, "web");
      /** The status of an authorization request to the second instance with this redirect URI. */
      const authorize = async (path: string) => {
        const request = new URL("/auth/oidc/authorize", second.issuer);
        request.search = new URLSearchParams({
          client_id: web.clientId,
          redirect_uri: `${uriBase}${path}`,
          response_type: "code",
          scope: "openid",
          code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
          code_challenge_method: "S256",
        }).toString();
        return (await fetch(request, { redirect: "manual" })).status;
      };
      // The second instance has looked the client up, so it keeps it for a moment.
      expect(await authorize("/callback")).toBe(303);
      expect(await authorize("/elsewhere")).toBe(400);

      await saveTemplate(template, {
        clientsBackend: [{ ...template.clientsBackend[0], redirectUriTemplates: ["{uriBase}/elsewhere"] }],
      });
      const saved = Date.now();
      // Asked again until it answers with the change; the README promises a second.
      while ((await authorize("/elsewhere")) !== 303)
        expect(Date.now() - saved).toBeLessThan(clientCacheMs * 5);
      expect(await authorize("/callback")).toBe(400);
    } finally {
      await second.dispose();
    }
  });
});
