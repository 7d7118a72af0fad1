import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/server/config.ts";
import { isSealed } from "../src/server/secrets/sealing.ts";
import { startVrata } from "../src/server/start.ts";
import { findCredential } from "../src/server/store/accounts.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { browserFetch, CookieJar } from "./support/browser.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { TestOp, type OpPerson, type TestOpOptions } from "./support/oidc-op.ts";
import { freePort } from "./support/ports.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Issue 27: OpenID providers as they are met in practice, each a real oidc-provider on loopback: an
// issuer that ends in "/" after a path (Entra v1, Azure AD B2C), a token endpoint that takes only
// client_secret_post or only private_key_jwt, and ID tokens that leave the profile to userinfo.
// Every sign-in goes from an organization's app through the provider to the app's ID token.

/** A client secret with the characters RFC 6749 §2.3.1 has Basic credentials form-urlencode. */
const awkwardSecret = "s3cret with spaces+plus/slash:colon%percent&amp";

const providerKeys = ["tenant", "post", "jwt", "thin"] as const;
type ProviderKey = (typeof providerKeys)[number];

const person = (sub: string): OpPerson => ({
  sub,
  claims: {
    name: `${sub} Upstream`,
    given_name: sub,
    preferred_username: sub,
    email: `${sub}@example.com`,
    email_verified: true,
  },
});

/** A configuration folder with `vrata.json` naming `providers`, and the secret files they name. */
function configFolder(providers: unknown[], secrets: Record<string, string>): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-upstreams-"));
  for (const [file, secret] of Object.entries(secrets)) fs.writeFileSync(path.join(folder, file), secret);
  fs.writeFileSync(path.join(folder, "vrata.json"), JSON.stringify({ providers }));
  return folder;
}

const entry = (key: string, issuer: string, fields: Record<string, unknown>) => ({
  key,
  type: "oidc",
  name: { en: key, sl: key },
  issuer,
  clientId: `vrata-${key}`,
  ...fields,
});

describe.each(storeEngines)("upstream OpenID providers as they are ($name)", ({ url }) => {
  const ops = {} as Record<ProviderKey, TestOp>;
  let server: TestServer;
  let app: TestApp;
  let folder: string;
  let callbackOf: (key: ProviderKey) => string;

  beforeAll(async () => {
    const port = await freePort();
    const vrata = `https://localhost:${port}`;
    callbackOf = (key) => `${vrata}/auth/provider/${key}`;
    const client = (key: ProviderKey, fields: Partial<TestOpOptions["client"]>) => ({
      clientId: `vrata-${key}`,
      redirectUri: callbackOf(key),
      ...fields,
    });
    const opOptions: Record<ProviderKey, TestOpOptions> = {
      tenant: {
        path: "/tenant/",
        authMethod: "client_secret_basic",
        client: client("tenant", { clientSecret: awkwardSecret }),
      },
      post: { path: "/", authMethod: "client_secret_post", client: client("post", { clientSecret: "post" }) },
      jwt: {
        path: "/",
        authMethod: "private_key_jwt",
        client: client("jwt", { jwksUri: `${vrata}/providerJwks` }),
      },
      thin: {
        path: "/",
        authMethod: "client_secret_basic",
        thinIdTokens: true,
        client: client("thin", { clientSecret: "thin" }),
      },
    };
    for (const key of providerKeys) ops[key] = await TestOp.start(opOptions[key]);
    folder = configFolder(
      [
        entry("tenant", ops.tenant.issuer, { clientSecretFile: "tenant.secret" }),
        entry("post", ops.post.issuer, {
          clientSecretEnv: "VRATA_TEST_POST_SECRET",
          tokenEndpointAuthMethod: "client_secret_post",
        }),
        entry("jwt", ops.jwt.issuer, { tokenEndpointAuthMethod: "private_key_jwt" }),
        entry("thin", ops.thin.issuer, { clientSecretFile: "thin.secret" }),
      ],
      { "tenant.secret": awkwardSecret, "thin.secret": "thin" },
    );
    process.env.VRATA_TEST_POST_SECRET = "post";
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: ["--port", String(port), "--config", path.join(folder, "vrata.json")],
    });
    app = await registerTestApp(server.db);
  });

  afterAll(async () => {
    await server.dispose();
    await Promise.all(Object.values(ops).map((op) => op.close()));
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
    delete process.env.VRATA_TEST_POST_SECRET;
  });

  /**
   * The app sends the person to Vrata, who chooses the provider and signs in there; returns the
   * browser and Vrata's answer to the provider's redirect.
   */
  async function throughProvider(key: ProviderKey, who: OpPerson) {
    ops[key].signsIn(who);
    const driver = await FlowDriver.start(server.url, app);
    const { status, flow } = await driver.step("providerStart", { provider: key });
    expect(status).toBe(200);
    let url = flow.thirdPartyProvider?.location ?? "";
    expect(url.startsWith(`${ops[key].issuer}auth?`)).toBe(true);
    // The provider's cookies are its own: a browser keeps them apart from Vrata's.
    const atProvider = browserFetch(new CookieJar());
    for (let hop = 0; !url.startsWith(callbackOf(key)); hop++) {
      const response = await atProvider(url);
      const location = response.headers.get("location");
      if (!location || hop > 10)
        throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
      url = new URL(location, url).href;
    }
    return { driver, answer: await driver.fetch(url, { headers: { accept: "text/html" } }) };
  }

  /** The whole sign-in: the claims of the ID token the app gets in the end. */
  async function appIdToken(key: ProviderKey, who: OpPerson) {
    const { driver, answer } = await throughProvider(key, who);
    expect(answer.status).toBe(303);
    expect((await driver.get()).completed).toEqual(["signup"]);
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id ?? "" } });
    expect((await driver.step("redirect")).flow.completed.at(-1)).toBe("finishReady");
    const tokens = await driver.exchange(await driver.returnToApp());
    return tokens.claims();
  }

  const profileOf = (who: OpPerson) => ({
    name: who.claims.name,
    given_name: who.claims.given_name,
    preferred_username: who.claims.preferred_username,
    email: who.claims.email,
  });

  it("discovers an issuer ending in / as written and signs in with Basic credentials form-urlencoded", async () => {
    expect(ops.tenant.issuer).toMatch(/^https:\/\/localhost:\d+\/tenant\/$/);
    const who = person("tina");
    expect(await appIdToken("tenant", who)).toMatchObject(profileOf(who));
    const credential = await findCredential(server.db, "tenant", "tina");
    expect(credential).toBeDefined();
  });

  it("authenticates with client_secret_post at a provider that takes only that", async () => {
    const who = person("paul");
    expect(await appIdToken("post", who)).toMatchObject(profileOf(who));
  });

  it("authenticates with private_key_jwt, verifiable with the JWKS Vrata publishes", async () => {
    const who = person("jana");
    expect(await appIdToken("jwt", who)).toMatchObject(profileOf(who));
    const [assertion] = ops.jwt.assertions;
    const published = await fetch(`${server.url}/providerJwks`);
    expect(published.status).toBe(200);
    expect(published.headers.get("content-type")).toContain("application/jwk-set+json");
    const { keys } = (await published.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0] ?? {}).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    const { payload, protectedHeader } = await jwtVerify(
      assertion ?? "",
      createRemoteJWKSet(new URL(`${server.url}/providerJwks`)),
      { issuer: "vrata-jwt", subject: "vrata-jwt", audience: ops.jwt.issuer },
    );
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: keys[0]?.kid });
    expect(payload.aud).toBe(ops.jwt.issuer);
    // The private key is sealed in the store, and stays the same when Vrata starts again.
    const stored = await server.db
      .selectFrom("instance_settings")
      .select("value")
      .where("key", "=", "upstreamClientKey")
      .executeTakeFirstOrThrow();
    expect(isSealed(stored.value)).toBe(true);
    server = await server.restart();
    const again = (await (await fetch(`${server.url}/providerJwks`)).json()) as { keys: { kid: string }[] };
    expect(again.keys.map(({ kid }) => kid)).toEqual([keys[0]?.kid]);
  });

  it("reads the profile from userinfo when the ID token carries none of it", async () => {
    const who = {
      ...person("theo"),
      claims: { ...person("theo").claims, picture: "https://example.com/t.png" },
    };
    expect(await appIdToken("thin", who)).toMatchObject({ ...profileOf(who), picture: who.claims.picture });
    const credential = await findCredential(server.db, "thin", "theo");
    expect(credential).toBeDefined();
  });

  it("refuses a userinfo answer about another subject than the ID token's", async () => {
    ops.thin.userinfoSubject = "someone-else";
    try {
      const { driver, answer } = await throughProvider("thin", person("ulla"));
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('"error":"providerAnswerInvalid"');
      expect((await driver.get()).completed).toEqual([]);
    } finally {
      ops.thin.userinfoSubject = undefined;
    }
    expect(await findCredential(server.db, "thin", "ulla")).toBeUndefined();
    expect(await findCredential(server.db, "thin", "someone-else")).toBeUndefined();
  });
});

describe("a provider whose discovery contradicts its entry", () => {
  let op: TestOp;
  const folders: string[] = [];

  beforeAll(async () => {
    op = await TestOp.start({
      path: "/tenant/",
      authMethod: "client_secret_post",
      client: {
        clientId: "vrata-only",
        clientSecret: "post",
        redirectUri: "https://localhost/auth/provider/only",
      },
    });
  });

  afterAll(async () => {
    await op.close();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  /** The one line Vrata stops with when started with this entry. */
  async function startFailure(fields: Record<string, unknown>, issuer = op.issuer): Promise<string> {
    const folder = configFolder([entry("only", issuer, fields)], { "only.secret": "post" });
    folders.push(folder);
    const file = path.join(folder, "vrata.json");
    const config = loadConfig(
      ["--port", String(await freePort()), "--data", folder, "--config", file, "--log-level", "silent"],
      {},
    );
    const error = await startVrata(config).then(
      async (running) => {
        await running.close();
        return new Error("Vrata started");
      },
      (refused: unknown) => refused as Error,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).not.toContain("\n");
    expect(error.message.startsWith(`${file}: providers[0].`)).toBe(true);
    return error.message;
  }

  it("stops the start on a token endpoint method the provider does not list, naming the entry", async () => {
    expect(await startFailure({ clientSecretFile: "only.secret" })).toContain(
      "providers[0].tokenEndpointAuthMethod client_secret_basic is not one the provider takes: its discovery document lists client_secret_post",
    );
    expect(await startFailure({ tokenEndpointAuthMethod: "private_key_jwt" })).toContain(
      "providers[0].tokenEndpointAuthMethod private_key_jwt is not one the provider takes",
    );
  });

  it("stops the start on an issuer written otherwise than the provider names it", async () => {
    const withoutSlash = op.issuer.replace(/\/$/, "");
    expect(
      await startFailure(
        { clientSecretFile: "only.secret", tokenEndpointAuthMethod: "client_secret_post" },
        withoutSlash,
      ),
    ).toContain(
      `providers[0].issuer ${withoutSlash} is not the issuer the provider's discovery document names (${op.issuer})`,
    );
  });
});
