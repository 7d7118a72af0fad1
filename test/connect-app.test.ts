import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { connectedAppSchema, type ConnectedApp } from "../src/common/api/connect-app.ts";
import { publicApplicationSchema } from "../src/common/api/organization.ts";
import { apiPath } from "../src/common/routes.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { readOrganization, signInThrough, type ConsoleUser } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Connecting an app in one step: a template of the app's kind, an organization and the app in it,
// whose client works at once; a refusal leaves nothing behind.

const connectPath = apiPath("ConnectApp");
const address = "http://localhost:3000";

describe.each(storeEngines)("connecting an app on $name", ({ url }) => {
  let server: TestServer;
  let developer: ConsoleUser;
  let stranger: ConsoleUser;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    developer = await consoleSignUp(server.url, "devi");
    stranger = await consoleSignUp(server.url, "stan");
  });
  afterAll(() => server.dispose());

  async function connect(api: ConsoleApi, body: Record<string, unknown>): Promise<ConnectedApp> {
    const response = await postJson(api, connectPath, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return connectedAppSchema.parse(await response.json());
  }

  /** The app as its admins read it: the clients to configure it with. */
  async function clientsOf(connected: ConnectedApp) {
    const response = await developer.api(`/api/o/app/${connected.organizationId}/${connected.applicationId}`);
    expect(response.status).toBe(200);
    return publicApplicationSchema.parse(await response.json()).clients ?? [];
  }

  /** A new person signs in to the app through its client; returns the ID token's claims. */
  async function firstIdToken(app: TestApp, authentication: client.ClientAuth, username: string) {
    const driver = await FlowDriver.start(server.url, app, {}, authentication);
    const { tokens } = await signInThrough(driver, username);
    return tokens.claims();
  }

  /** What the store holds that a connection makes: a refusal must leave each count as it was. */
  async function counts() {
    const count = async (table: "application_templates" | "organizations" | "oauth_clients" | "activities") =>
      Number(
        (
          await server.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      templates: await count("application_templates"),
      organizations: await count("organizations"),
      clients: await count("oauth_clients"),
      activities: await count("activities"),
    };
  }

  it("makes a web app with a server in a new organization named after it; its secret signs a person in", async () => {
    const connected = await connect(developer.api, {
      kind: "webServer",
      name: "Notes",
      address: `${address}/`,
    });
    const organization = await readOrganization(developer.api, connected.organizationId);
    expect(organization.name).toBe("Notes");
    expect(organization.canUpdate).toBe(true);

    const [backend, ...others] = await clientsOf(connected);
    expect(others).toEqual([]);
    expect(backend).toMatchObject({
      kind: "backend",
      tokenEndpointAuthMethod: "client_secret_basic",
      redirectUris: [`${address}/callback`],
      postLogoutRedirectUris: [`${address}/`],
      scopes: ["openid", "profile", "email"],
    });
    expect(connected.secrets.map(({ clientId }) => clientId)).toEqual([backend?.id]);
    expect(connected.secrets[0]?.secret).toMatch(/^vcs-[\w-]{43}$/);

    const app = {
      organizationId: connected.organizationId,
      applicationId: connected.applicationId,
      clientId: backend?.id ?? "",
      redirectUri: `${address}/callback`,
    };
    const claims = await firstIdToken(
      app,
      client.ClientSecretBasic(connected.secrets[0]?.secret ?? ""),
      "wendy",
    );
    expect(claims).toMatchObject({ aud: backend?.id, iss: server.issuer });

    // The secret is handed over once: the organization's page does not show it again.
    expect((await readOrganization(developer.api, connected.organizationId)).secrets).toBeUndefined();

    // Each part is recorded as the console records it when made one by one.
    const activity = activityPageSchema.parse(await (await developer.api("/api/activity")).json());
    const types = activity.items.slice(0, 3).map((entry) => entry.type);
    expect(types.sort()).toEqual(["applicationTemplateCreate", "organizationCreate", "organizationUpdate"]);
  });

  it("makes a single-page app's public client, which signs a person in with PKCE and no secret", async () => {
    const connected = await connect(developer.api, {
      kind: "singlePage",
      name: "Board",
      address: "https://board.example",
      organizationName: "Board makers",
    });
    expect((await readOrganization(developer.api, connected.organizationId)).name).toBe("Board makers");
    expect(connected.secrets).toEqual([]);
    const [spa] = await clientsOf(connected);
    expect(spa).toMatchObject({ kind: "public", redirectUris: ["https://board.example/callback"] });
    const app = { ...connected, clientId: spa?.id ?? "", redirectUri: "https://board.example/callback" };
    expect(await firstIdToken(app, client.None(), "paula")).toMatchObject({ aud: spa?.id });
  });

  it("makes a native app's loopback client, which takes the port the app listens on", async () => {
    const connected = await connect(developer.api, { kind: "native", name: "Notes CLI" });
    expect(connected.secrets).toEqual([]);
    const [native] = await clientsOf(connected);
    expect(native).toMatchObject({ kind: "public", redirectUris: ["http://127.0.0.1/callback"] });
    const app = { ...connected, clientId: native?.id ?? "", redirectUri: "http://127.0.0.1:53682/callback" };
    expect(await firstIdToken(app, client.None(), "nina")).toMatchObject({ aud: native?.id });
  });

  it("makes a service's client, whose client-credentials call works at once", async () => {
    const connected = await connect(developer.api, { kind: "service", name: "Nightly sync" });
    const [service] = await clientsOf(connected);
    expect(service).toMatchObject({ kind: "service", redirectUris: [] });
    const secret = connected.secrets.find((given) => given.clientId === service?.id)?.secret ?? "";
    const config = await client.discovery(
      new URL(server.issuer),
      service?.id ?? "",
      undefined,
      client.ClientSecretBasic(secret),
    );
    const tokens = await client.clientCredentialsGrant(config);
    expect(tokens.access_token).not.toBe("");
  });

  it("adds the app to an organization the caller administers, keeping its other apps", async () => {
    const first = await connect(developer.api, { kind: "webServer", name: "Shop", address });
    const second = await connect(developer.api, {
      kind: "service",
      name: "Shop stock",
      organizationId: first.organizationId,
    });
    expect(second.organizationId).toBe(first.organizationId);
    const organization = await readOrganization(developer.api, first.organizationId);
    expect(organization.applications?.map((application) => application.id)).toEqual([
      first.applicationId,
      second.applicationId,
    ]);
    // The first app's client keeps its secret: only the new client's is handed over.
    expect(second.secrets).toHaveLength(1);
    expect((await clientsOf(first))[0]?.id).not.toBe(second.secrets[0]?.clientId);
  });

  const refusals: [string, Record<string, unknown>, number, string, string | undefined][] = [
    ["an unknown kind", { kind: "desktop", name: "X", address }, 400, "badRequest", undefined],
    ["no name", { kind: "webServer", name: " ", address }, 400, "badRequest", undefined],
    ["no address", { kind: "singlePage", name: "X" }, 400, "invalidRedirectUri", "address"],
    [
      "an address that is no URL",
      { kind: "webServer", name: "X", address: "localhost:3000" },
      400,
      "invalidRedirectUri",
      "address",
    ],
    [
      "plain http off this computer",
      { kind: "webServer", name: "X", address: "http://app.example" },
      400,
      "invalidRedirectUri",
      "address",
    ],
    [
      "a fragment",
      { kind: "singlePage", name: "X", address: "https://app.example/#x" },
      400,
      "invalidRedirectUri",
      "address",
    ],
    [
      "an unknown organization",
      { kind: "service", name: "X", organizationId: "nope" },
      404,
      "notFound",
      "organizationId",
    ],
  ];

  it.each(refusals)(
    "refuses %s with a code the form translates, storing nothing",
    async (_, body, status, code, field) => {
      const before = await counts();
      const response = await postJson(developer.api, connectPath, body);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: code, ...(field ? { field } : {}) });
      expect(await counts()).toEqual(before);
    },
  );

  it("refuses to add the app to somebody else's organization, and the template made first is undone", async () => {
    const theirs = await connect(stranger.api, { kind: "service", name: "Theirs" });
    const before = await counts();
    const response = await postJson(developer.api, connectPath, {
      kind: "webServer",
      name: "Intruder",
      address,
      organizationId: theirs.organizationId,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "forbidden" });
    expect(await counts()).toEqual(before);
    const organization = await readOrganization(stranger.api, theirs.organizationId);
    expect(organization.applications).toHaveLength(1);
  });

  it("adds apps connected at the same moment to one organization each whole, or refuses them whole", async () => {
    const { organizationId } = await connect(developer.api, { kind: "service", name: "Busy" });
    const templatesBefore = (await counts()).templates;
    const answers = await Promise.all(
      ["One", "Two", "Three", "Four"].map((name) =>
        postJson(developer.api, connectPath, { kind: "service", name, organizationId }),
      ),
    );
    const added = [];
    for (const answer of answers) {
      // Another save of the organization came first: the person is told to try again.
      expect([201, 409]).toContain(answer.status);
      if (answer.status === 201) added.push(connectedAppSchema.parse(await answer.json()).applicationId);
      else expect(await answer.json()).toMatchObject({ error: "conflict" });
    }
    expect(added.length).toBeGreaterThan(0);
    const organization = await readOrganization(developer.api, organizationId);
    expect(
      organization.applications
        ?.slice(1)
        .map((application) => application.id)
        .sort(),
    ).toEqual(added.sort());
    expect((await counts()).templates).toBe(templatesBefore + added.length);
  });

  it("asks who calls: nobody signed in gets 401", async () => {
    const response = await fetch(server.url + connectPath, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "service", name: "X" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthorized" });
  });
});
