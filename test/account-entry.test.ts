import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountSchema } from "../src/common/api/account.ts";
import { findAccountIdByCredential } from "../src/server/store/accounts.ts";
import type { TestApp } from "./support/apps.ts";
import { CookieJar } from "./support/browser.ts";
import { accountPageApp, consoleApp, consoleSignUp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { registerTestApp } from "./support/apps.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// The account page signs in with a client of its own: the person's account, with no identity chosen.
// openid-client plays the page, as an independent relying party.

describe.each(storeEngines)("the account page's own sign-in on $name", ({ url }) => {
  let server: TestServer;
  let accountApp: TestApp;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    accountApp = await accountPageApp(server.url);
  });
  afterAll(() => server.dispose());

  const openidOnly = { scope: "openid" };

  const bearer =
    (accessToken: string) =>
    (path: string, init: RequestInit = {}) =>
      fetch(server.url + path, {
        ...init,
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      });

  /** A new person signs up at the account page with a username and a password. */
  async function signUpAtAccountPage(jar = new CookieJar()) {
    const username = `entry${++people}`;
    const driver = await FlowDriver.start(server.issuer, accountApp, openidOnly, client.None(), jar);
    await driver.step("passwordStart", { emailOrUsername: username });
    const signedUp = await driver.step("passwordComplete", { password: `${username}'s passphrase` });
    return { driver, signedUp, username };
  }

  it("finishes a sign-up without the identity step, with tokens for the account's own APIs only", async () => {
    const { driver, signedUp, username } = await signUpAtAccountPage();
    expect(signedUp.flow.completed).toEqual(["signup"]);
    expect(signedUp.flow.accountPage).toBe(true);

    const ready = await driver.step("redirect");
    expect(ready.status).toBe(200);
    expect(ready.flow.completed).toEqual(["signup", "finishReady"]);
    const tokens = await driver.exchange(await driver.returnToApp());
    const claims = tokens.claims();
    const accountId = (await findAccountIdByCredential(server.db, "username", username)) ?? "";
    expect(accountId).not.toBe("");
    expect(claims?.sub).toMatch(/^[\w-]{20,}$/);
    expect(claims?.sub).not.toBe(accountId);
    // The account page is given no identity's data.
    expect(claims).not.toHaveProperty("preferred_username");
    expect(claims).not.toHaveProperty("email");

    const api = bearer(tokens.access_token);
    const account = await api("/api/account");
    expect(account.status).toBe(200);
    expect(accountSchema.parse(await account.json()).credentials.map(({ provider }) => provider)).toContain(
      "password",
    );
    // Every API that needs an identity refuses it: the account page chose none.
    expect((await api("/api/i")).status).toBe(401);
    expect((await api("/api/o")).status).toBe(401);
    const created = await api("/api/i/create", { method: "POST", body: JSON.stringify({ username: "x" }) });
    expect(created.status).toBe(401);
    // Its userinfo speaks of no identity either.
    const userinfo = await api("/api/auth/oidc/userinfo");
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toEqual({ sub: claims?.sub });

    // Signing out with the console's token, or with none, ends the account page's token too.
    const signedOut = await driver.fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(signedOut.status).toBe(200);
    expect((await api("/api/account")).status).toBe(401);
  });

  it("knows an account by the same `sub` in every browser, and answers prompt=none from the session", async () => {
    const jar = new CookieJar();
    const { driver, username } = await signUpAtAccountPage(jar);
    await driver.step("redirect");
    const first = await driver.exchange(await driver.returnToApp());

    // The same browser asks without any page: the single sign-on session answers at once.
    const silent = await FlowDriver.startSignedIn(
      server.issuer,
      accountApp,
      { ...openidOnly, prompt: "none" },
      client.None(),
      jar,
    );
    expect(silent.callback.searchParams.get("error")).toBeNull();
    const again = await silent.driver.exchange(silent.callback);
    expect(again.claims()?.sub).toBe(first.claims()?.sub);

    // Another browser signs in with the password: the same `sub`, and no identity step.
    const other = await FlowDriver.start(server.issuer, accountApp, openidOnly);
    await other.step("passwordStart", { emailOrUsername: username });
    const signedIn = await other.step("passwordComplete", { password: `${username}'s passphrase` });
    expect(signedIn.flow.completed).toEqual(["signin"]);
    await other.step("redirect");
    const elsewhere = await other.exchange(await other.returnToApp());
    expect(elsewhere.claims()?.sub).toBe(first.claims()?.sub);
  });

  it("answers a console user's prompt=none at once, with a `sub` no organization sees", async () => {
    const {
      driver: consoleDriver,
      tokens: consoleTokens,
      api: consoleApi,
    } = await consoleSignUp(server.url, `consoleentry${++people}`);
    const silent = await FlowDriver.startSignedIn(
      server.issuer,
      accountApp,
      { ...openidOnly, prompt: "none" },
      client.None(),
      consoleDriver.jar,
    );
    expect(silent.callback.searchParams.get("error")).toBeNull();
    const tokens = await silent.driver.exchange(silent.callback);
    expect(tokens.claims()?.sub).not.toBe(consoleTokens.claims()?.sub);
    const api = bearer(tokens.access_token);
    expect((await api("/api/account")).status).toBe(200);
    expect((await api("/api/i")).status).toBe(401);
    // The console's own token keeps opening both.
    expect((await consoleApi("/api/account")).status).toBe(200);
    expect((await consoleApi("/api/i")).status).toBe(200);

    // prompt=login asks the person to sign in anew, at the flow's page (a fresh sign-in).
    const again = await FlowDriver.start(
      server.issuer,
      accountApp,
      { ...openidOnly, prompt: "login" },
      client.None(),
      consoleDriver.jar,
    );
    expect((await again.get()).accountPage).toBe(true);
  });

  it("without a session, prompt=none is refused as login_required", async () => {
    const silent = await FlowDriver.startSignedIn(server.issuer, accountApp, {
      ...openidOnly,
      prompt: "none",
    });
    expect(silent.callback.searchParams.get("error")).toBe("login_required");
  });

  it("keeps the identity step for every app: an app's flow cannot skip it", async () => {
    const app = await registerTestApp(server.db);
    for (const target of [app, await consoleApp(server.issuer)]) {
      const username = `skipper${++people}`;
      const driver = await FlowDriver.start(server.issuer, target);
      await driver.step("passwordStart", { emailOrUsername: username });
      const signedUp = await driver.step("passwordComplete", { password: `${username}'s passphrase` });
      expect(signedUp.flow.accountPage).toBeUndefined();
      expect((await driver.raw("redirect", {})).status).toBe(400);
      expect((await driver.get()).completed).toEqual(["signup"]);
    }
  });
});
