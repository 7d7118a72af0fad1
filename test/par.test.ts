import * as client from "openid-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Pushed authorization requests (RFC 9126) with PKCE and DPoP, as openid-client sends them.

let server: TestServer;
let app: TestApp;
beforeAll(async () => {
  server = await startTestServer();
  app = await registerTestApp(server.db, "Pushed");
});
afterAll(() => server.dispose());

it("is advertised in discovery at its route of the table", async () => {
  const config = await client.discovery(new URL(server.issuer), app.clientId);
  expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(
    `${server.issuer}/auth/oidc/par`,
  );
});

it("signs a person in with a pushed request, PKCE and a DPoP-bound code and tokens", async () => {
  const dpop = client.getDPoPHandle(
    await client.discovery(new URL(server.issuer), app.clientId),
    await client.randomDPoPKeyPair(),
  );
  const driver = await FlowDriver.startPushed(server.issuer, app, dpop);
  await driver.step("passwordStart", { emailOrUsername: "pushed-person" });
  expect((await driver.step("passwordComplete", { password: "a pushed passphrase" })).status).toBe(200);
  const id = (await driver.identities())[0]?.id ?? "";
  await driver.step("chooseIdentity", { identity: { id } });
  await driver.step("redirect");
  const tokens = await driver.exchange(await driver.returnToApp(), dpop);
  expect(tokens.token_type.toLowerCase()).toBe("dpop");
  expect(tokens.claims()).toMatchObject({ preferred_username: "pushed-person", azp: app.clientId });
  const userinfo = await client.fetchUserInfo(
    driver.config,
    tokens.access_token,
    tokens.claims()?.sub ?? "",
    {
      DPoP: dpop,
    },
  );
  expect(userinfo.preferred_username).toBe("pushed-person");
  // Without the DPoP proof the token is refused.
  await expect(
    client.fetchUserInfo(driver.config, tokens.access_token, tokens.claims()?.sub ?? ""),
  ).rejects.toThrow();
});

it("refuses a pushed request for a redirect URI the client does not have", async () => {
  const config = await client.discovery(new URL(server.issuer), app.clientId);
  await expect(
    client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: "https://elsewhere.example/callback",
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    }),
  ).rejects.toMatchObject({
    error: "invalid_request",
    error_description: expect.stringContaining("redirect_uri") as unknown,
  });
});
