import {
  createLocalJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  SignJWT,
  generateKeyPair,
  type JSONWebKeySet,
} from "jose";
import fs from "node:fs";
import http2 from "node:http2";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import {
  defaultRefreshTokenLifespanSeconds,
  templateSchema,
  type Template,
} from "../src/common/api/template.ts";
import { routes } from "../src/common/routes.ts";
import { catalogs } from "../src/web/i18n/catalogs.ts";
import { createTranslator } from "../src/web/i18n/translator.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { clientByDescription } from "./support/organization-admin.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Both access token types of a template's clients (HMAC = opaque, JWT = RFC 9068), seen by openid-client
// at the token, userinfo, introspection and revocation endpoints.

let server: TestServer;
let organization: Organization;
let template: Template;
let introspector: client.Configuration;
/** The same template's introspecting client in another organization. */
let outsider: client.Configuration;
let keys: ReturnType<typeof createLocalJWKSet>;

const uriBase = "https://tokens.example";
const tokenTypes = ["hmac", "jwt"] as const;
const day = 24 * 3600;
const jwtClientRefreshLifespan = 3 * day;

beforeAll(async () => {
  server = await startTestServer();
  const owner = await consoleSignUp(server.url, "tina");
  const created = await postJson(owner.api, "/api/a/create", {
    name: "Tokens",
    idScopes: ["openid", "profile"],
    variables: [{ name: "uriBase" }],
    clientsPublic: tokenTypes.map((type) => ({
      description: type,
      accessTokenType: type,
      accessTokenLifespan: 600,
      // The HMAC client's refresh tokens last the default time, the JWT client's their own.
      ...(type === "jwt" ? { refreshTokenLifespan: jwtClientRefreshLifespan } : {}),
      additionalScopes: ["offline_access"],
      redirectUriTemplates: [`{uriBase}/${type}`],
    })),
    clientsBackend: [
      { description: "introspector", redirectUriTemplates: ["{uriBase}/api"], accessTokenType: "hmac" },
    ],
    clientsService: tokenTypes.map((type) => ({ description: `service ${type}`, accessTokenType: type })),
  });
  const { id: templateId } = (await created.json()) as { id: string };
  template = templateSchema.parse(await (await owner.api(`/api/a/${templateId}`)).json());
  const addOrganization = async (name: string) => {
    const { id } = (await (await postJson(owner.api, "/api/o/create", { name })).json()) as { id: string };
    const added = await postJson(owner.api, `/api/o/update/${id}`, {
      version: 1,
      name,
      admins: [],
      applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }] }],
    });
    return organizationSchema.parse(await added.json());
  };
  const introspectorOf = async (of: Organization) => {
    const { clientId, secret } = clientOf("introspector", of);
    return client.discovery(new URL(server.issuer), clientId, undefined, client.ClientSecretBasic(secret));
  };
  organization = await addOrganization("Token org");
  introspector = await introspectorOf(organization);
  outsider = await introspectorOf(await addOrganization("Other org"));
  const jwks = (await (await fetch(server.url + routes.OIDCKeys.path)).json()) as JSONWebKeySet;
  keys = createLocalJWKSet(jwks);
});
afterAll(() => server.dispose());

const clientOf = (description: string, of = organization) => clientByDescription(of, template, description);

async function signIn(type: (typeof tokenTypes)[number], username: string) {
  const { clientId } = clientOf(type);
  const app = {
    clientId,
    organizationId: organization.id,
    applicationId: organization.applications?.[0]?.id ?? "",
    redirectUri: `${uriBase}/${type}`,
  };
  const driver = await FlowDriver.start(server.issuer, app, {
    scope: "openid profile offline_access",
    prompt: "consent",
  });
  await driver.step("passwordStart", { emailOrUsername: username });
  await driver.step("passwordComplete", { password: `${username}'s passphrase` });
  const [identity] = await driver.identities();
  await driver.step("chooseIdentity", { identity: { id: identity?.id } });
  await driver.step("redirect");
  return { driver, callback: await driver.returnToApp(), clientId, app };
}

const introspect = (token: string) => client.tokenIntrospection(introspector, token);

describe.each(tokenTypes)("%s access tokens", (type) => {
  it("work at userinfo and introspection, survive a refresh, and stop when revoked", async () => {
    const { driver, callback, clientId, app } = await signIn(type, `uma-${type}`);
    const tokens = await driver.exchange(callback);
    const sub = tokens.claims()?.sub ?? "";
    expect(sub).not.toBe("");

    if (type === "jwt") {
      expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: "at+jwt", alg: "RS256" });
      const { payload } = await jwtVerify(tokens.access_token, keys, {
        issuer: server.issuer,
        typ: "at+jwt",
      });
      expect(payload).toMatchObject({
        sub,
        client_id: clientId,
        scope: "openid profile offline_access",
        aud: [app.organizationId, app.applicationId, clientId],
      });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    } else {
      expect(tokens.access_token).not.toContain(".");
    }

    const userinfo = await client.fetchUserInfo(driver.config, tokens.access_token, sub);
    expect(userinfo).toMatchObject({ sub, preferred_username: `uma-${type}` });
    expect(await introspect(tokens.access_token)).toMatchObject({
      active: true,
      sub,
      client_id: clientId,
      scope: "openid profile offline_access",
      token_type: "Bearer",
    });
    // Another organization's client learns nothing of it, and cannot revoke it.
    expect(await client.tokenIntrospection(outsider, tokens.access_token)).toEqual({ active: false });
    await client.tokenRevocation(outsider, tokens.access_token);
    expect(await introspect(tokens.access_token)).toMatchObject({ active: true });

    const refreshed = await client.refreshTokenGrant(driver.config, tokens.refresh_token ?? "");
    expect(refreshed.access_token.split(".")).toHaveLength(type === "jwt" ? 3 : 1);
    expect(await client.fetchUserInfo(driver.config, refreshed.access_token, sub)).toMatchObject({ sub });

    await client.tokenRevocation(driver.config, refreshed.access_token);
    expect(await introspect(refreshed.access_token)).toEqual({ active: false });
    await expect(client.fetchUserInfo(driver.config, refreshed.access_token, sub)).rejects.toThrow();
  });

  it("are bound to a DPoP key when the client proves one", async () => {
    const { driver, callback } = await signIn(type, `dora-${type}`);
    const dpop = client.getDPoPHandle(driver.config, await client.randomDPoPKeyPair());
    const tokens = await client.authorizationCodeGrant(
      driver.config,
      callback,
      { pkceCodeVerifier: driver.codeVerifier, expectedState: driver.state, expectedNonce: driver.nonce },
      undefined,
      { DPoP: dpop },
    );
    expect(tokens.token_type).toBe("dpop");
    const sub = tokens.claims()?.sub ?? "";
    expect(await client.fetchUserInfo(driver.config, tokens.access_token, sub, { DPoP: dpop })).toMatchObject(
      {
        sub,
      },
    );
    // Without the proof the same token is refused.
    await expect(client.fetchUserInfo(driver.config, tokens.access_token, sub)).rejects.toThrow();
    expect(await introspect(tokens.access_token)).toMatchObject({ active: true, token_type: "DPoP" });
  });

  it("are given to service clients, with the application as subject", async () => {
    const { clientId, secret } = clientOf(`service ${type}`);
    const config = await client.discovery(
      new URL(server.issuer),
      clientId,
      undefined,
      client.ClientSecretBasic(secret),
    );
    const tokens = await client.clientCredentialsGrant(config);
    const applicationId = organization.applications?.[0]?.id;
    if (type === "jwt") {
      const { payload } = await jwtVerify(tokens.access_token, keys, {
        issuer: server.issuer,
        typ: "at+jwt",
      });
      expect(payload).toMatchObject({ sub: applicationId, client_id: clientId });
    }
    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({
      active: true,
      sub: applicationId,
      client_id: clientId,
    });
    await client.tokenRevocation(config, tokens.access_token);
    expect(await client.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
  });
});

/** Introspects over HTTP/2 (as browsers and many servers' clients speak it), with the introspector's Basic credentials. */
async function introspectOverHttp2(token: string): Promise<unknown> {
  const { clientId, secret } = clientOf("introspector");
  const session = http2.connect(server.url, { ca: fs.readFileSync(server.tls?.caFile ?? "") });
  try {
    return await new Promise((resolve, reject) => {
      const request = session.request({
        ":method": "POST",
        ":path": routes.OIDCIntrospect.path,
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      });
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as unknown));
      request.on("error", reject);
      request.end(new URLSearchParams({ token }).toString());
    });
  } finally {
    session.close();
  }
}

describe("refresh tokens", () => {
  /** How long a refresh token lasts from its issue, as introspection says. */
  async function lifespanOf(refreshToken: string | undefined) {
    const introspected = await introspect(refreshToken ?? "");
    expect(introspected).toMatchObject({ active: true });
    return { iat: introspected.iat ?? 0, lasts: (introspected.exp ?? 0) - (introspected.iat ?? 0) };
  }

  it("of a client without a refresh lifespan are said on the template page to last 14 days", () => {
    for (const [language, fourteenDays] of [
      ["en", "Empty: 14 days."],
      ["sl", "Če pustite prazno: 14 dni."],
    ] as const) {
      const { t } = createTranslator(language, catalogs[language]);
      const hint = t("templates.clients.refreshTokenLifespanHint", {
        count: defaultRefreshTokenLifespanSeconds / day,
      });
      expect(hint).toContain(fourteenDays);
    }
  });

  it.each([
    ["without a refresh lifespan last 14 days, as the template page says", "hmac", 14 * day],
    ["with a refresh lifespan last that long", "jwt", jwtClientRefreshLifespan],
  ] as const)("of a client %s, and each use gives one that lasts as long again", async (_, type, lasts) => {
    const { driver, callback } = await signIn(type, `rene-${type}`);
    const tokens = await driver.exchange(callback);
    const first = await lifespanOf(tokens.refresh_token);
    expect(first.lasts).toBe(lasts);

    const refreshed = await client.refreshTokenGrant(driver.config, tokens.refresh_token ?? "");
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const second = await lifespanOf(refreshed.refresh_token);
    expect(second.lasts).toBe(lasts);
    expect(second.iat).toBeGreaterThanOrEqual(first.iat);
    expect(await introspect(tokens.refresh_token ?? "")).toEqual({ active: false });
  });
});

describe("introspection over HTTP/2", () => {
  it("reads the JWT from the body as over HTTP/1.1", async () => {
    const { driver, callback } = await signIn("jwt", "hana");
    const tokens = await driver.exchange(callback);
    expect(await introspectOverHttp2(tokens.access_token)).toMatchObject({
      active: true,
      sub: tokens.claims()?.sub,
    });
    expect(await introspectOverHttp2("not-a-token")).toEqual({ active: false });
  });
});

describe("a JWT access token that is not Vrata's", () => {
  it("is refused at userinfo and inactive at introspection", async () => {
    const { driver, callback } = await signIn("jwt", "fred");
    const tokens = await driver.exchange(callback);
    const sub = tokens.claims()?.sub ?? "";
    const [header = "", , signature = ""] = tokens.access_token.split(".");
    const claims = JSON.parse(
      Buffer.from(tokens.access_token.split(".")[1] ?? "", "base64url").toString(),
    ) as object;
    const { privateKey } = await generateKeyPair("RS256");
    const forgeries = [
      // Its claims changed under the original signature.
      [
        header,
        Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url"),
        signature,
      ].join("."),
      // The same claims signed by a key that is not Vrata's.
      await new SignJWT({ ...claims }).setProtectedHeader({ alg: "RS256", typ: "at+jwt" }).sign(privateKey),
    ];
    for (const forged of forgeries) {
      await expect(client.fetchUserInfo(driver.config, forged, sub)).rejects.toThrow();
      expect(await introspect(forged)).toEqual({ active: false });
    }
    // The real one still works.
    expect(await client.fetchUserInfo(driver.config, tokens.access_token, sub)).toMatchObject({ sub });
  });
});
