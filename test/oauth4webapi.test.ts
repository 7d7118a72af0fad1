import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { browserFetch, CookieJar } from "./support/browser.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
let app: TestApp;
beforeAll(async () => {
  server = await startTestServer();
  app = await registerTestApp(server.db);
});
afterAll(() => server.dispose());

it("runs the authorization code flow with PKCE for oauth4webapi as a relying party", async () => {
  const issuer = new URL(server.issuer);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer));
  const client: oauth.Client = { client_id: app.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const authorize = new URL(as.authorization_endpoint ?? "");
  authorize.search = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: "code",
    scope: "openid profile",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  }).toString();

  // The person's part, as a browser: follow to the flow, sign up, choose the identity, go back.
  const browser = browserFetch(new CookieJar());
  const flowPath = (await browser(authorize.href)).headers.get("location") ?? "";
  const flowId = flowPath.split("/").at(-1) ?? "";
  const post = (step: string, body: unknown) =>
    browser(`${server.issuer}/api/auth/${step}/${flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await post("passwordStart", { emailOrUsername: "uma" });
  await post("passwordComplete", { password: "uma's passphrase" });
  const identities = (await (await browser(`${server.issuer}/api/i?flow=${flowId}`)).json()) as {
    id: string;
  }[];
  await post("chooseIdentity", { identity: { id: identities[0]?.id } });
  await post("redirect", {});
  let location = `${server.issuer}/auth/${flowId}`;
  while (!location.startsWith(app.redirectUri)) {
    location = new URL((await browser(location)).headers.get("location") ?? "", location).href;
  }

  const parameters = oauth.validateAuthResponse(as, client, new URL(location), state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    parameters,
    app.redirectUri,
    verifier,
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: nonce,
    requireIdToken: true,
  });
  const claims = oauth.getValidatedIdTokenClaims(result);
  expect(claims?.preferred_username).toBe("uma");
  expect(result.token_type.toLowerCase()).toBe("bearer");

  const userinfo = await oauth.processUserInfoResponse(
    as,
    client,
    claims?.sub ?? "",
    await oauth.userInfoRequest(as, client, result.access_token),
  );
  expect(userinfo).toMatchObject({ sub: claims?.sub, preferred_username: "uma" });
});
