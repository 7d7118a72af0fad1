import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextSchema } from "../src/common/api/context.ts";
import { routes } from "../src/common/routes.ts";
import { enginePagePolicy } from "../src/server/oidc/engine-pages.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

async function consoleClientId(server: TestServer): Promise<string> {
  return contextSchema.parse(await (await fetch(server.url + routes.Context.path)).json()).clientId;
}

describe("OIDC engine seen by independent clients", () => {
  let server: TestServer;
  let clientId: string;
  beforeAll(async () => {
    server = await startTestServer();
    clientId = await consoleClientId(server);
  });
  afterAll(() => server.dispose());

  it("is discovered by openid-client at the spec's routes", async () => {
    const config = await client.discovery(new URL(server.issuer), clientId, undefined, client.None());
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(server.issuer);
    expect(metadata.authorization_endpoint).toBe(server.issuer + routes.OIDCAuthorize.path);
    expect(metadata.token_endpoint).toBe(server.issuer + routes.OIDCToken.path);
    expect(metadata.revocation_endpoint).toBe(server.issuer + routes.OIDCRevoke.path);
    expect(metadata.introspection_endpoint).toBe(server.issuer + routes.OIDCIntrospect.path);
    expect(metadata.userinfo_endpoint).toBe(server.issuer + routes.OIDCUserinfo.path);
    expect(metadata.jwks_uri).toBe(server.issuer + routes.OIDCKeys.path);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.response_types_supported).toEqual(["code"]);
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]),
    );
    expect(metadata.dpop_signing_alg_values_supported).toBeDefined();
  });

  it("serves the same metadata at both well-known paths, also to oauth4webapi", async () => {
    const openid: unknown = await (await fetch(server.url + routes.OIDCDiscovery.path)).json();
    const oauthServer: unknown = await (await fetch(server.url + routes.OAuthDiscovery.path)).json();
    expect(oauthServer).toEqual(openid);
    const issuer = new URL(server.issuer);
    const response = await oauth.discoveryRequest(issuer, { algorithm: "oauth2" });
    expect((await oauth.processDiscoveryResponse(issuer, response)).token_endpoint).toBe(
      server.issuer + routes.OIDCToken.path,
    );
  });

  it("serves discovery and keys from memory with an ETag", async () => {
    for (const path of [routes.OIDCDiscovery.path, routes.OAuthDiscovery.path, routes.OIDCKeys.path]) {
      const first = await fetch(server.url + path);
      const etag = first.headers.get("etag") ?? "";
      expect(etag, path).toMatch(/^"[\w-]{43}"$/);
      const again = await fetch(server.url + path, { headers: { "if-none-match": etag } });
      expect(again.status, path).toBe(304);
      const head = await fetch(server.url + path, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(await head.text(), path).toBe("");
    }
  });

  it("publishes public signing keys only", async () => {
    const { keys } = (await (await fetch(server.url + routes.OIDCKeys.path)).json()) as {
      keys: Record<string, string>[];
    };
    expect(keys.map((key) => key.alg).sort()).toEqual(["ES256", "RS256"]);
    for (const key of keys) {
      expect(key.kid).toMatch(/^[\w-]{43}$/);
      expect(key.use).toBe("sig");
      expect(key.d).toBeUndefined();
    }
  });

  it("sends the console's authorization request to the flow page", async () => {
    const config = await client.discovery(new URL(server.issuer), clientId, undefined, client.None());
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: `${server.issuer}/`,
      scope: "openid profile email",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
      state: client.randomState(),
      nonce: client.randomNonce(),
    });
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(303);
    const flowPath = new URL(response.headers.get("location") ?? "", server.issuer).pathname;
    expect(flowPath).toMatch(/^\/auth\/[\w-]+$/);
    const page = await fetch(server.url + flowPath);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("refuses an authorization request without PKCE, back at the app", async () => {
    const url = new URL(server.issuer + routes.OIDCAuthorize.path);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: `${server.issuer}/`,
      response_type: "code",
      scope: "openid",
      state: "s1",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe(`${server.issuer}/`);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("s1");
  });

  it("shows an error page for an unknown client, without redirecting", async () => {
    const url = `${server.issuer}${routes.OIDCAuthorize.path}?client_id=nobody&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fevil.example%2F`;
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain('"error":"invalid_client"');
    // The page is the web app's error page, under the web app's policy (test/error-pages.test.ts).
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const home = await fetch(server.url + "/");
    expect(response.headers.get("content-security-policy")).toBe(home.headers.get("content-security-policy"));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("answers with a policy under which nothing loads or runs where it writes the answer itself", async () => {
    const response = await fetch(server.url + routes.OIDCToken.path, { method: "POST" });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-security-policy")).toBe(enginePagePolicy);
  });
});

describe.each(storeEngines)("restart on $name", ({ url }) => {
  it("keeps the JWKS and the console client ID", async () => {
    let server = await startTestServer(url ? { postgresUrl: url } : {});
    try {
      const jwks: unknown = await (await fetch(server.url + routes.OIDCKeys.path)).json();
      const clientId = await consoleClientId(server);
      server = await server.restart();
      expect(await (await fetch(server.url + routes.OIDCKeys.path)).json()).toEqual(jwks);
      expect(await consoleClientId(server)).toBe(clientId);
    } finally {
      await server.dispose();
    }
  });
});
