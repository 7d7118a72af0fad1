import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { sentTogether } from "./support/together.ts";

// A pushed authorization request (RFC 9126) is used once: its request_uri, opened several times at
// the same moment by a browser signed in already (which the engine answers at once), gives the app
// one code.

describe.each(storeEngines)("a pushed request opened at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    app = await registerTestApp(server.db, "Pushed");
  });
  afterAll(() => server.dispose());

  it("gives the app one code", async () => {
    // The person signs in to the app once: later requests of this browser are answered at once.
    const first = await FlowDriver.start(server.issuer, app);
    await first.step("passwordStart", { emailOrUsername: "pushy" });
    expect((await first.step("passwordComplete", { password: "a pushed passphrase" })).status).toBe(200);
    const id = (await first.identities())[0]?.id ?? "";
    await first.step("chooseIdentity", { identity: { id } });
    await first.step("redirect");
    await first.exchange(await first.returnToApp());

    const config = await client.discovery(new URL(server.issuer), app.clientId);
    const pushed = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: app.redirectUri,
      scope: "openid profile",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const answers = await sentTogether(server.issuer, () => first.fetch(pushed.href));
    const codes = answers.filter(
      ({ location }) => location && new URL(location, server.issuer).searchParams.has("code"),
    );
    expect(codes).toHaveLength(1);
    // The others are refused as a request_uri used already: on a page when the engine found it used,
    // or back at the app when the store found the winner had consumed it meanwhile.
    for (const { status, location } of answers.filter((answer) => !codes.includes(answer))) {
      const error = location && new URL(location, server.issuer).searchParams.get("error");
      expect(status === 400 || error === "invalid_request_uri", `${status} ${location}`).toBe(true);
    }
  });
});
