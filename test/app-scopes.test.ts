import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { templateSchema, type Template } from "../src/common/api/template.ts";
import { routes } from "../src/common/routes.ts";
import { newId } from "../src/server/ids.ts";
import { reportRefusedScopes } from "../src/server/templates/scope-report.ts";
import { insertDocument } from "../src/server/store/documents.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { rotateCommand } from "./support/rotate-keys.ts";
import { clientByDescription } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Scopes an application template defines for its app's own API: checked when the template is saved,
// accepted by the engine for the clients granted them and refused for every other, carried by the
// tokens, and named to the person on the identity step.

const uriBase = "https://shop.example";

const ordersRead = {
  name: "orders:read",
  description: { en: "See your orders", sl: "Ogled vaših naročil" },
};
const ordersWrite = {
  name: "orders:write",
  description: { en: "Place orders for you", sl: "Oddajanje naročil v vašem imenu" },
};

/** The shop's template: its own two scopes, granted to its clients one by one. */
const shopTemplate = {
  name: "Shop",
  idScopes: ["openid", "profile"],
  appScopes: [ordersRead, ordersWrite],
  variables: [{ name: "uriBase" }],
  clientsPublic: [{ description: "plain", redirectUriTemplates: ["{uriBase}/plain"] }],
  clientsBackend: [
    {
      description: "reader",
      redirectUriTemplates: ["{uriBase}/reader"],
      additionalScopes: ["orders:read", "offline_access"],
    },
  ],
  clientsService: [
    { description: "service hmac", additionalScopes: ["orders:read"] },
    { description: "service jwt", additionalScopes: ["orders:read", "orders:write"], accessTokenType: "jwt" },
  ],
};

interface AddedApp {
  organization: Organization;
  template: Template;
}

async function addedApp(api: ConsoleApi, fields: Record<string, unknown>, name: string): Promise<AddedApp> {
  const created = await postJson(api, "/api/a/create", fields);
  expect(created.status, await created.clone().text()).toBe(201);
  const { id: templateId } = (await created.json()) as { id: string };
  const template = templateSchema.parse(await (await api(`/api/a/${templateId}`)).json());
  const { id } = (await (await postJson(api, "/api/o/create", { name })).json()) as { id: string };
  const updated = await postJson(api, `/api/o/update/${id}`, {
    version: 1,
    name,
    admins: [],
    applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }] }],
  });
  expect(updated.status).toBe(200);
  return { organization: organizationSchema.parse(await updated.json()), template };
}

/** The organization's client made from the template's client with this description, its secret and its app. */
function clientOf({ organization, template }: AddedApp, description: string) {
  const { clientId, secret } = clientByDescription(organization, template, description);
  const app: TestApp = {
    clientId,
    organizationId: organization.id,
    applicationId: organization.applications?.[0]?.id ?? "",
    redirectUri: `${uriBase}/${description}`,
  };
  return { clientId, secret, app };
}

describe.each(storeEngines)("scopes that apps define, on $name", ({ url }) => {
  let server: TestServer;
  let api: ConsoleApi;
  let ownerId: string;
  let shop: AddedApp;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    ({ api, identityId: ownerId } = await consoleSignUp(server.url, "sara"));
    shop = await addedApp(api, shopTemplate, "Shop org");
  });
  afterAll(() => server.dispose());

  const discover = (clientId: string, secret: string) =>
    client.discovery(new URL(server.issuer), clientId, undefined, client.ClientSecretBasic(secret));

  /** Where the engine sends the browser for an authorization request with this scope. */
  async function authorizationAnswer(app: TestApp, scope: string, secret?: string): Promise<URL> {
    const config = await client.discovery(
      new URL(server.issuer),
      app.clientId,
      undefined,
      secret ? client.ClientSecretBasic(secret) : client.None(),
    );
    const authorization = client.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
      state: client.randomState(),
    });
    const response = await fetch(authorization, { redirect: "manual" });
    expect(response.status).toBe(303);
    return new URL(response.headers.get("location") ?? "", server.issuer);
  }

  it("are saved with the template, and malformed, reserved, repeated or unknown ones are refused at their field", async () => {
    expect(shop.template.appScopes).toEqual([ordersRead, ordersWrite]);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { appScopes: [{ name: "orders read" }] },
        { error: "invalidScopeName", field: "appScopes.0.name", values: ["orders read"] },
      ],
      [{ appScopes: [{ name: ":orders" }] }, { error: "invalidScopeName", field: "appScopes.0.name" }],
      [{ appScopes: [{ name: "x".repeat(101) }] }, { error: "invalidScopeName", field: "appScopes.0.name" }],
      [{ appScopes: [{ name: "" }] }, { error: "invalidScopeName", field: "appScopes.0.name" }],
      [
        { appScopes: [ordersRead, { name: "Profile" }] },
        { error: "reservedScopeName", field: "appScopes.1.name", values: ["Profile"] },
      ],
      [{ appScopes: [{ name: "phone" }] }, { error: "reservedScopeName", field: "appScopes.0.name" }],
      [
        { appScopes: [ordersRead, ordersWrite, ordersRead] },
        { error: "duplicateScope", field: "appScopes.2.name", values: ["orders:read"] },
      ],
      [{ idScopes: ["open id"] }, { error: "unknownScope", field: "idScopes.0", values: ["open id"] }],
      [
        {
          appScopes: [ordersRead],
          clientsService: [{ additionalScopes: ["orders:read", "orders:write"] }],
        },
        { error: "unknownScope", field: "clientsService.0.additionalScopes.1", values: ["orders:write"] },
      ],
    ];
    for (const [fields, expected] of cases) {
      const response = await postJson(api, "/api/a/create", { name: "Broken", ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.json(), JSON.stringify(fields)).toMatchObject(expected);
    }
  });

  it("are given to a service client by client_credentials, and introspection shows them", async () => {
    const { clientId, secret } = clientOf(shop, "service hmac");
    const config = await discover(clientId, secret);
    const tokens = await client.clientCredentialsGrant(config, { scope: "orders:read" });
    expect(tokens.scope).toBe("orders:read");
    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({
      active: true,
      client_id: clientId,
      scope: "orders:read",
    });
  });

  it("are the scope claim of JWT access tokens, whose audience names the application", async () => {
    const { clientId, secret, app } = clientOf(shop, "service jwt");
    const config = await discover(clientId, secret);
    const tokens = await client.clientCredentialsGrant(config, { scope: "orders:read orders:write" });
    const jwks = (await (await fetch(server.url + routes.OIDCKeys.path)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks), {
      issuer: server.issuer,
      typ: "at+jwt",
    });
    expect(payload).toMatchObject({
      scope: "orders:read orders:write",
      sub: app.applicationId,
      aud: expect.arrayContaining([app.applicationId]) as unknown,
    });
    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({
      active: true,
      scope: "orders:read orders:write",
    });
  });

  it("name, besides the app's own, the data of the identity the app's OpenID scopes give it", async () => {
    const { secret, app } = clientOf(shop, "reader");
    const driver = await FlowDriver.start(
      server.issuer,
      app,
      { scope: "profile orders:read openid" },
      client.ClientSecretBasic(secret),
    );
    const flow = await driver.get();
    expect(flow.personalData).toEqual(["profile"]);
    expect(flow.appScopes).toEqual([ordersRead]);
  });

  it("are asked for in a backend client's code flow, named on the identity step and granted", async () => {
    const { clientId, secret, app } = clientOf(shop, "reader");
    const driver = await FlowDriver.start(
      server.issuer,
      app,
      { scope: "openid offline_access orders:read", prompt: "consent" },
      client.ClientSecretBasic(secret),
    );
    await driver.step("passwordStart", { emailOrUsername: "bruno" });
    const { flow } = await driver.step("passwordComplete", { password: "bruno's passphrase" });
    expect(flow.completed).toEqual(["signup"]);
    expect(flow.appScopes).toEqual([ordersRead]);
    // offline_access gives the app no data of the identity: the step names none.
    expect(flow.personalData).toBeUndefined();
    const { tokens } = await signInRest(driver);
    expect(tokens.scope).toBe("openid offline_access orders:read");
    expect(tokens.claims()?.aud).toBe(clientId);
    expect(
      await client.tokenIntrospection(await discover(clientId, secret), tokens.access_token),
    ).toMatchObject({ active: true, scope: "openid offline_access orders:read" });

    const sub = tokens.claims()?.sub ?? "";
    expect(await client.fetchUserInfo(driver.config, tokens.access_token, sub)).toEqual({ sub });

    // A refresh may narrow the scopes to the app's own; it cannot widen them.
    const narrowed = await client.refreshTokenGrant(driver.config, tokens.refresh_token ?? "", {
      scope: "orders:read",
    });
    expect(narrowed.scope).toBe("orders:read");
    await expect(
      client.refreshTokenGrant(driver.config, narrowed.refresh_token ?? "", { scope: "openid orders:write" }),
    ).rejects.toMatchObject({ error: "invalid_scope" });
  });

  /** The rest of a sign-in whose first steps are done: identity, redirect and code exchange. */
  async function signInRest(driver: FlowDriver) {
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id } });
    await driver.step("redirect");
    return { tokens: await driver.exchange(await driver.returnToApp()) };
  }

  it("not granted to a client are refused with invalid_scope, never dropped", async () => {
    // A client granted only the OpenID scopes asks for the app's scope.
    const plain = clientOf(shop, "plain");
    const refused = await authorizationAnswer(plain.app, "openid orders:read");
    expect(refused.origin + refused.pathname).toBe(plain.app.redirectUri);
    expect(refused.searchParams.get("error")).toBe("invalid_scope");

    // A client granted one of the app's scopes asks for the other, or for one no template defines.
    const reader = clientOf(shop, "reader");
    for (const scope of ["openid orders:write", "openid invoices:read"]) {
      const answer = await authorizationAnswer(reader.app, scope, reader.secret);
      expect(answer.searchParams.get("error"), scope).toBe("invalid_scope");
    }
    const readerConfig = await discover(reader.clientId, reader.secret);
    const pushed = client.buildAuthorizationUrlWithPAR(readerConfig, {
      redirect_uri: reader.app.redirectUri,
      scope: "openid orders:write",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    await expect(pushed).rejects.toMatchObject({ error: "invalid_scope" });

    const service = clientOf(shop, "service hmac");
    const config = await discover(service.clientId, service.secret);
    for (const scope of ["orders:write", "orders:read invoices:read"]) {
      await expect(client.clientCredentialsGrant(config, { scope }), scope).rejects.toMatchObject({
        error: "invalid_scope",
      });
    }
  });

  it("of the same name in two templates stay each template's own", async () => {
    const other = await addedApp(
      api,
      {
        name: "Warehouse",
        appScopes: [
          { name: "orders:read", description: { en: "Read stock orders", sl: "Branje naročil zaloge" } },
        ],
        variables: [{ name: "uriBase" }],
        clientsBackend: [{ description: "stock", redirectUriTemplates: ["{uriBase}/stock"] }],
        clientsService: [{ description: "stock service", additionalScopes: ["orders:read"] }],
      },
      "Warehouse org",
    );
    // The warehouse's backend client was not granted the warehouse's scope, whatever the shop's say.
    const stock = clientOf(other, "stock");
    const refused = await authorizationAnswer(stock.app, "openid orders:read", stock.secret);
    expect(refused.searchParams.get("error")).toBe("invalid_scope");

    // Its service client was, and the shop's clients are unchanged.
    const service = clientOf(other, "stock service");
    const tokens = await client.clientCredentialsGrant(await discover(service.clientId, service.secret), {
      scope: "orders:read",
    });
    expect(tokens.scope).toBe("orders:read");
    const plain = clientOf(shop, "plain");
    expect((await authorizationAnswer(plain.app, "openid orders:read")).searchParams.get("error")).toBe(
      "invalid_scope",
    );

    // Each template describes its own scope to the people its app asks.
    const shopReader = clientOf(shop, "reader");
    const driver = await FlowDriver.start(
      server.issuer,
      shopReader.app,
      { scope: "openid orders:read" },
      client.ClientSecretBasic(shopReader.secret),
    );
    await driver.step("passwordStart", { emailOrUsername: "vesna" });
    await driver.step("passwordComplete", { password: "vesna's passphrase" });
    expect((await driver.get()).appScopes).toEqual([ordersRead]);
  });

  it("are taken and refused the same by the engine made for new signing keys", async () => {
    const published = async () =>
      ((await (await fetch(server.url + routes.OIDCKeys.path)).json()) as JSONWebKeySet).keys.length;
    const before = await published();
    await rotateCommand(server, url);
    await server.signingKeys.refresh();
    expect(await published()).toBeGreaterThan(before);

    const { clientId, secret } = clientOf(shop, "service hmac");
    const config = await discover(clientId, secret);
    expect((await client.clientCredentialsGrant(config, { scope: "orders:read" })).scope).toBe("orders:read");
    await expect(client.clientCredentialsGrant(config, { scope: "orders:write" })).rejects.toMatchObject({
      error: "invalid_scope",
    });
  });

  it("stored before they were checked are reported at start, and their clients still work without them", async () => {
    // As stored before templates defined scopes: an additional scope no template defines.
    const stored = {
      name: "Legacy",
      description: "",
      homepageTemplate: "",
      idScopes: ["openid", "open id"],
      variables: [{ name: "uriBase", description: "" }],
      clientsPublic: [],
      clientsBackend: [],
      clientsService: [
        {
          id: newId(),
          description: "legacy service",
          additionalScopes: ["orders:read"],
          accessTokenType: "hmac",
          accessTokenLifespan: 3600,
          idTokenLifespan: 3600,
          tokenEndpointAuthMethod: "client_secret_basic",
        },
      ],
      admins: [ownerId],
    };
    const templateId = newId();
    await insertDocument(server.db, "application_templates", templateId, stored, Date.now());
    const { id } = (await (await postJson(api, "/api/o/create", { name: "Legacy org" })).json()) as {
      id: string;
    };
    const added = await postJson(api, `/api/o/update/${id}`, {
      version: 1,
      name: "Legacy org",
      admins: [],
      applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }] }],
    });
    expect(added.status).toBe(200);
    const organization = organizationSchema.parse(await added.json());

    const warnings: unknown[] = [];
    await reportRefusedScopes(server.db, { warn: (details: unknown) => warnings.push(details) });
    const problems = [
      { field: "idScopes.1", code: "unknownScope", scope: "open id" },
      { field: "clientsService.0.additionalScopes.0", code: "unknownScope", scope: "orders:read" },
    ];
    expect(warnings).toEqual([
      { templateId, problems },
      { organizationId: id, applicationId: organization.applications?.[0]?.id, templateId, problems },
    ]);

    // The console reads the template as stored, for its page to point at what to correct.
    const template = templateSchema.parse(await (await api(`/api/a/${templateId}`)).json());
    expect(template.appScopes).toEqual([]);
    // The engine takes the client without the scope: it gets tokens, and the scope is refused.
    const legacy = clientOf({ organization, template }, "legacy service");
    const config = await discover(legacy.clientId, legacy.secret);
    expect((await client.clientCredentialsGrant(config)).access_token).not.toBe("");
    await expect(client.clientCredentialsGrant(config, { scope: "orders:read" })).rejects.toMatchObject({
      error: "invalid_scope",
    });
  });
});
