import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  organizationSchema,
  publicApplicationSchema,
  type Organization,
} from "../src/common/api/organization.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema } from "../src/common/api/identity.ts";
import { templateSchema } from "../src/common/api/template.ts";
import { documentListSchema } from "../src/common/api/summary.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
let owner: Awaited<ReturnType<typeof consoleSignUp>>;
let templateId: string;

const templateDefinition = {
  name: "Notes",
  idScopes: ["openid", "profile"],
  variables: [{ name: "uriBase", description: "Where the app runs" }],
  clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"] }],
  clientsBackend: [
    {
      description: "basic",
      redirectUriTemplates: ["{uriBase}/basic"],
      tokenEndpointAuthMethod: "client_secret_basic",
      accessTokenLifespan: 300,
      idTokenLifespan: 600,
    },
    {
      description: "post",
      redirectUriTemplates: ["{uriBase}/post"],
      tokenEndpointAuthMethod: "client_secret_post",
    },
  ],
  clientsService: [
    { description: "sync", tokenEndpointAuthMethod: "client_secret_basic", accessTokenLifespan: 900 },
  ],
};

beforeAll(async () => {
  server = await startTestServer();
  owner = await consoleSignUp(server.url, "xena");
  const created = await postJson(owner.api, "/api/a/create", templateDefinition);
  templateId = ((await created.json()) as { id: string }).id;
});
afterAll(() => server.dispose());

async function createOrganization(api: ConsoleApi, name: string): Promise<Organization> {
  const { id } = (await (await postJson(api, "/api/o/create", { name })).json()) as { id: string };
  return organizationSchema.parse(await (await api(`/api/o/${id}`)).json());
}

async function update(api: ConsoleApi, organization: Organization, changes: Record<string, unknown>) {
  return postJson(api, `/api/o/update/${organization.id}`, {
    version: organization.version,
    name: organization.name,
    description: organization.description,
    admins: organization.admins ?? [],
    applications: (organization.applications ?? []).map(({ id, active, values }) => ({ id, active, values })),
    ...changes,
  });
}

async function addNotes(organization: Organization, uriBase = "https://notes.example") {
  const response = await update(owner.api, organization, {
    applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }] }],
  });
  expect(response.status).toBe(200);
  return organizationSchema.parse(await response.json());
}

const byDescription = async (organization: Organization, description: string) => {
  const template = templateSchema.parse(await (await owner.api(`/api/a/${templateId}`)).json());
  const application = organization.applications?.[0];
  const all = [...template.clientsPublic, ...template.clientsBackend, ...template.clientsService];
  const templateClient = all.find((candidate) => candidate.description === description);
  const clients = [
    ...(application?.clientsPublic ?? []),
    ...(application?.clientsBackend ?? []),
    ...(application?.clientsService ?? []),
  ];
  const clientId = clients.find((candidate) => candidate.templateClientId === templateClient?.id)?.id ?? "";
  const secret = organization.secrets?.find((candidate) => candidate.clientId === clientId)?.secret ?? "";
  return { clientId, secret };
};

async function serviceToken(clientId: string, secret: string) {
  const config = await client.discovery(
    new URL(server.issuer),
    clientId,
    undefined,
    client.ClientSecretBasic(secret),
  );
  return client.clientCredentialsGrant(config, { scope: "openid" });
}

describe("organizations", () => {
  it("add a template as an application with real clients and secrets shown once", async () => {
    const organization = await addNotes(await createOrganization(owner.api, "Acme"));
    const [application] = organization.applications ?? [];
    expect(application).toMatchObject({
      active: true,
      templateId,
      values: [{ name: "uriBase", value: "https://notes.example" }],
    });
    expect(organization.secrets).toHaveLength(3);
    for (const { secret } of organization.secrets ?? []) expect(secret).toMatch(/^vcs-[\w-]{43}$/);
    const again = organizationSchema.parse(await (await owner.api(`/api/o/${organization.id}`)).json());
    expect(again.secrets).toBeUndefined();

    // The store keeps no usable secret anywhere.
    const dump = JSON.stringify(
      await Promise.all(
        (["oauth_clients", "organizations", "oidc_models", "instance_settings"] as const).map((table) =>
          server.db.selectFrom(table).selectAll().execute(),
        ),
      ),
    );
    for (const { secret } of organization.secrets ?? []) expect(dump).not.toContain(secret);
  });

  it("an application's page shows its admins how to configure the app, and others what it is", async () => {
    const organization = await addNotes(await createOrganization(owner.api, "Set-up"), "https://set.example");
    const [application] = organization.applications ?? [];
    const path = `/api/o/app/${organization.id}/${application?.id ?? ""}`;
    const publicView = publicApplicationSchema.parse(await (await fetch(server.url + path)).json());
    expect(publicView).toMatchObject({
      active: true,
      values: [{ name: "uriBase", value: "https://set.example" }],
    });
    expect(publicView.clients).toBeUndefined();

    const adminView = publicApplicationSchema.parse(await (await owner.api(path)).json());
    const { clientId } = await byDescription(organization, "basic");
    expect(adminView.clients).toContainEqual({
      kind: "backend",
      id: clientId,
      description: "basic",
      redirectUris: ["https://set.example/basic"],
      postLogoutRedirectUris: [],
      requirePushedAuthorizationRequests: false,
      tokenEndpointAuthMethod: "client_secret_basic",
      // What it may ask for, next to the discovery URL: no service client gets a person's data.
      scopes: ["openid", "profile"],
    });
    expect(adminView.clients?.find((configured) => configured.kind === "service")?.scopes).toEqual([]);
    expect(adminView.clients?.map((configured) => configured.kind).sort()).toEqual([
      "backend",
      "backend",
      "public",
      "service",
    ]);
    expect(adminView.clients?.find((configured) => configured.kind === "public")?.redirectUris).toEqual([
      "https://set.example/callback",
    ]);
    // A disabled application is shown to its admins only.
    const disabled = await update(owner.api, organization, {
      applications: [{ id: application?.id, active: false, values: application?.values }],
    });
    expect(disabled.status).toBe(200);
    expect((await fetch(server.url + path)).status).toBe(404);
    expect((await owner.api(path)).status).toBe(200);
  });

  it("sign people in through a backend client with the configured authentication method only", async () => {
    const organization = await addNotes(await createOrganization(owner.api, "Backend"));
    const app = (redirect: string, clientId: string) => ({
      clientId,
      organizationId: organization.id,
      applicationId: "",
      redirectUri: `https://notes.example/${redirect}`,
    });
    for (const [description, good, bad] of [
      ["basic", client.ClientSecretBasic, client.ClientSecretPost],
      ["post", client.ClientSecretPost, client.ClientSecretBasic],
    ] as const) {
      const { clientId, secret } = await byDescription(organization, description);
      const driver = await FlowDriver.start(
        server.issuer,
        app(description, clientId),
        { scope: "openid profile" },
        good(secret),
      );
      await driver.step("passwordStart", { emailOrUsername: `yuri-${description}` });
      await driver.step("passwordComplete", { password: "yuri's passphrase" });
      const [identity] = await driver.identities();
      await driver.step("chooseIdentity", { identity: { id: identity?.id } });
      await driver.step("redirect");
      const callback = await driver.returnToApp();
      const wrongMethod = await client.discovery(new URL(server.issuer), clientId, undefined, bad(secret));
      await expect(
        client.authorizationCodeGrant(wrongMethod, callback, {
          pkceCodeVerifier: driver.codeVerifier,
          expectedState: driver.state,
          expectedNonce: driver.nonce,
        }),
      ).rejects.toThrow();
      const tokens = await driver.exchange(callback);
      const claims = tokens.claims();
      expect(claims?.preferred_username).toBe(`yuri-${description}`);
      // Lifespans come from the template's client.
      const expected = description === "basic" ? { access: 300, id: 600 } : { access: 3600, id: 3600 };
      expect(tokens.expires_in).toBe(expected.access);
      expect((claims?.exp ?? 0) - (claims?.iat ?? 0)).toBe(expected.id);
    }
  });

  it("a flow names the organization's new name at once after a rename on the same server", async () => {
    const organization = await addNotes(await createOrganization(owner.api, "Before the rename"));
    const clients = organization.applications?.[0]?.clientsPublic ?? [];
    const app = {
      clientId: clients[0]?.id ?? "",
      organizationId: organization.id,
      applicationId: organization.applications?.[0]?.id ?? "",
      redirectUri: "https://notes.example/callback",
    };
    const driver = await FlowDriver.start(server.issuer, app, { scope: "openid" });
    expect((await driver.get()).organizationName).toBe("Before the rename");

    const response = await update(owner.api, organization, { name: "After the rename" });
    expect(response.status).toBe(200);
    // The flow's answers keep app names for a moment, but not past a change this server made.
    expect((await driver.get()).organizationName).toBe("After the rename");
  });

  it("give service clients tokens by client credentials; rotating or disabling stops the old access", async () => {
    let organization = await addNotes(await createOrganization(owner.api, "Service"));
    const { clientId, secret } = await byDescription(organization, "sync");
    const tokens = await serviceToken(clientId, secret);
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.expires_in).toBe(900);
    // The token's subject is the application, as introspection shows.
    const config = await client.discovery(
      new URL(server.issuer),
      clientId,
      undefined,
      client.ClientSecretBasic(secret),
    );
    const introspection = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspection).toMatchObject({
      active: true,
      sub: organization.applications?.[0]?.id,
      client_id: clientId,
    });

    const rotated = await update(owner.api, organization, { rotateSecrets: [clientId] });
    organization = organizationSchema.parse(await rotated.json());
    const newSecret =
      organization.secrets?.find((candidate) => candidate.clientId === clientId)?.secret ?? "";
    expect(organization.secrets).toHaveLength(1);
    await expect(serviceToken(clientId, secret)).rejects.toThrow();
    expect((await serviceToken(clientId, newSecret)).access_token).toBeTruthy();

    const disabled = await update(owner.api, organization, {
      applications: (organization.applications ?? []).map(({ id, values }) => ({
        id,
        active: false,
        values,
      })),
    });
    expect(disabled.status).toBe(200);
    await expect(serviceToken(clientId, newSecret)).rejects.toThrow();
  });

  it("are changed by admins only, with versions, and check the values", async () => {
    const organization = await createOrganization(owner.api, "Guarded");
    const stranger = await consoleSignUp(server.url, "zoran");
    expect((await stranger.api(`/api/o/${organization.id}`).then((r) => r.json())) as object).toMatchObject({
      canUpdate: false,
      name: "Guarded",
      // None of the stranger's identities administers it.
      ownAdminIdentities: [],
    });
    expect((await update(stranger.api, organization, { name: "Mine" })).status).toBe(403);
    const listed = async (api: ConsoleApi) =>
      documentListSchema
        .parse(await (await api("/api/o")).json())
        .find((item) => item.id === organization.id);
    expect(await listed(owner.api)).toMatchObject({ name: "Guarded", canUpdate: true });
    expect(await listed(stranger.api)).toMatchObject({ name: "Guarded", canUpdate: false });
    expect(
      (await fetch(`${server.url}/api/o/update/${organization.id}`, { method: "POST", body: "{}" })).status,
    ).toBe(401);

    const badValues = await update(owner.api, organization, {
      applications: [{ templateId, active: true, values: [{ name: "other", value: "x" }] }],
    });
    expect(await badValues.json()).toMatchObject({
      error: "invalidValues",
      message: "values: missing uriBase; extra other",
    });
    const insecure = await update(owner.api, organization, {
      applications: [
        { templateId, active: true, values: [{ name: "uriBase", value: "http://notes.example" }] },
      ],
    });
    expect(await insecure.json()).toMatchObject({ error: "invalidRedirectUri" });

    expect((await update(owner.api, organization, { name: "Guarded 2" })).status).toBe(200);
    const stale = await update(owner.api, organization, { name: "Guarded 3" });
    expect(stale.status).toBe(409);
  });
});

describe("identities in organizations", () => {
  it("join by invitation, are disabled and leave through the identity; the organization sees them by scoped ID", async () => {
    const organization = await createOrganization(owner.api, "Members");
    const member = await consoleSignUp(server.url, "ana");
    const identityUrl = `/api/i/${member.identityId}`;
    const read = async () => identitySchema.parse(await (await member.api(identityUrl)).json());
    type Membership = { organizationId: string; active: boolean };
    /** Sends the identity's memberships as `change` makes them from the current ones. */
    const set = async (change: (current: Membership[]) => Membership[]) => {
      const current = await read();
      const memberships = (current.organizations ?? []).map(({ organizationId, active }) => ({
        organizationId,
        active,
      }));
      const response = await postJson(member.api, `/api/i/update/${member.identityId}`, {
        version: current.version,
        username: current.username,
        organizations: change(memberships),
      });
      expect(response.status).toBe(200);
      return identitySchema.parse(await response.json());
    };
    const others = (list: Membership[]) => list.filter((m) => m.organizationId !== organization.id);

    const invited = await postJson(owner.api, `/api/o/invite/${organization.id}`, {
      identityId: member.identityId,
      role: "member",
    });
    const { id: invitationId } = (await invited.json()) as { id: string };
    expect(
      (await postJson(member.api, `/api/i/accept/${member.identityId}/${invitationId}`, {})).status,
    ).toBe(200);
    const membership = (await read()).organizations?.find(
      (candidate) => candidate.organizationId === organization.id,
    );
    expect(membership).toMatchObject({ active: true, applications: [] });
    expect(membership?.id).not.toBe(member.identityId);

    const asAdmin = await owner.api(`/api/o/identity/${organization.id}/${membership?.id ?? ""}`);
    expect(await asAdmin.json()).toMatchObject({ id: membership?.id, username: "ana", active: true });
    const stranger = await consoleSignUp(server.url, "bor");
    expect((await stranger.api(`/api/o/identity/${organization.id}/${membership?.id ?? ""}`)).status).toBe(
      404,
    );

    const disabled = await set((list) => [
      ...others(list),
      { organizationId: organization.id, active: false },
    ]);
    expect(disabled.organizations?.find((m) => m.organizationId === organization.id)?.active).toBe(false);
    const left = await set(others);
    const current = await read();
    expect(left.organizations?.some((m) => m.organizationId === organization.id)).toBe(false);
    expect(current.organizations?.some((m) => m.organizationId === organization.id)).toBe(false);

    const activity = activityPageSchema.parse(await (await member.api("/api/activity")).json());
    const joined = [{ id: organization.id, name: organization.name, path: `/o/${organization.id}` }];
    expect(activity.items.slice(0, 3).map((item) => item.changes)).toEqual([
      [{ kind: "membershipRemoved", organizations: joined }],
      [{ kind: "membershipDisabled", organizations: joined }],
      [{ kind: "membershipAdded", organizations: joined }],
    ]);

    // Having left, the identity cannot come back on its own.
    const rejoin = await postJson(member.api, `/api/i/update/${member.identityId}`, {
      version: current.version,
      username: "ana",
      organizations: [{ organizationId: organization.id, active: true }],
    });
    expect(await rejoin.json()).toMatchObject({ error: "joinByInvitation" });
  });
});
