import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { browserFetch, CookieJar } from "./support/browser.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { sentTogether } from "./support/together.ts";

/** Exactly one of the answers gave tokens; every other one is the refusal of a grant used twice. */
function expectOneGranted(answers: { status: number; json: Record<string, unknown> | undefined }[]) {
  const granted = answers.filter((answer) => answer.status === 200);
  expect(granted).toHaveLength(1);
  for (const refused of answers.filter((answer) => answer.status !== 200))
    expect(refused).toMatchObject({ status: 400, json: { error: "invalid_grant" } });
  return granted[0]?.json ?? {};
}

describe.each(storeEngines)("oauth4webapi as a relying party, on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    app = await registerTestApp(server.db);
  });
  afterAll(() => server.dispose());

  /** An app's authorization request, answered by a person who signs up: the code back at the app. */
  async function authorizationCode(username: string, scope: string) {
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
      scope,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      ...(scope.includes("offline_access") ? { prompt: "consent" } : {}),
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
    await post("passwordStart", { emailOrUsername: username });
    await post("passwordComplete", { password: `${username}'s passphrase` });
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
    const exchange = () =>
      oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, app.redirectUri, verifier);
    return { as, client, nonce, exchange };
  }

  it("runs the authorization code flow with PKCE", async () => {
    const { as, client, nonce, exchange } = await authorizationCode("uma", "openid profile");
    const result = await oauth.processAuthorizationCodeResponse(as, client, await exchange(), {
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

  it("exchanges a code once, also when the app sends it several times at the same moment", async () => {
    const { exchange } = await authorizationCode("vid", "openid profile");
    expectOneGranted(await sentTogether(server.issuer, exchange));
  });

  it("rotates a refresh token once, also when it is sent several times at the same moment", async () => {
    const scope = "openid profile offline_access";
    const { as, client, nonce, exchange } = await authorizationCode("zala", scope);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange(), {
      expectedNonce: nonce,
    });
    const refreshToken = tokens.refresh_token ?? "";
    expect(refreshToken).not.toBe("");
    const answers = await sentTogether(server.issuer, () =>
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken),
    );
    const rotated = expectOneGranted(answers);
    expect(rotated.refresh_token).toEqual(expect.any(String));
  });
});
