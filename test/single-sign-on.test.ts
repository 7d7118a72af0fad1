import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { CookieJar } from "./support/browser.ts";
import { consoleApp } from "./support/console.ts";
import { confirmationPage, confirmLogout } from "./support/logout-pages.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Single sign-on belongs to the person (design.md §5): one sign-in reaches the console and the apps of
// every organization; each organization knows the person only by the identity chosen for its app.

describe.each(storeEngines)("single sign-on on $name", ({ url }) => {
  let server: TestServer;
  let console: TestApp;
  let notes: TestApp;
  let tasks: TestApp;
  let unused: TestApp;

  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    console = await consoleApp(server.issuer);
    notes = await registerTestApp(server.db, "Notes");
    tasks = await registerTestApp(server.db, "Tasks");
    unused = await registerTestApp(server.db, "Unused");
  });
  afterAll(async () => {
    await server.dispose();
  });

  const start = (app: TestApp, jar: CookieJar, parameters: Record<string, string> = {}) =>
    FlowDriver.start(server.issuer, app, parameters, undefined, jar);
  const startSignedIn = (app: TestApp, jar: CookieJar, parameters: Record<string, string> = {}) =>
    FlowDriver.startSignedIn(server.issuer, app, parameters, undefined, jar);

  async function signIn(driver: FlowDriver, username: string) {
    await driver.step("passwordStart", { emailOrUsername: username });
    const { status, flow } = await driver.step("passwordComplete", { password: `${username}'s passphrase` });
    expect(status).toBe(200);
    return flow;
  }

  /** Chooses the identity (the first offered unless told) and returns the app's tokens. */
  async function choose(driver: FlowDriver, identityId?: string) {
    const id = identityId ?? (await driver.identities())[0]?.id ?? "";
    expect((await driver.step("chooseIdentity", { identity: { id } })).status).toBe(200);
    await driver.step("redirect");
    return driver.exchange(await driver.returnToApp());
  }

  /** The ID token's payload as the app reads it, and every place the person's ID could travel in. */
  async function seenBy(
    driver: FlowDriver,
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  ) {
    const sub = tokens.claims()?.sub ?? "";
    const userinfo = await client.fetchUserInfo(driver.config, tokens.access_token, sub);
    const text = JSON.stringify([tokens, userinfo]);
    return { sub, text };
  }

  it("types credentials once for the console and two organizations' apps, which never learn each other's ID", async () => {
    const jar = new CookieJar();
    const atConsole = await start(console, jar);
    expect((await signIn(atConsole, "rosa")).completed).toEqual(["signup"]);
    const consoleSeen = await seenBy(atConsole, await choose(atConsole));

    // Signed in already: each organization's app starts at the identity step, without credentials.
    const atNotes = await start(notes, jar);
    expect((await atNotes.get()).completed).toEqual(["signin"]);
    const notesSeen = await seenBy(atNotes, await choose(atNotes));
    const atTasks = await start(tasks, jar);
    expect((await atTasks.get()).completed).toEqual(["signin"]);
    const tasksSeen = await seenBy(atTasks, await choose(atTasks));

    const subs = [consoleSeen.sub, notesSeen.sub, tasksSeen.sub];
    expect(new Set(subs).size).toBe(3);
    for (const [index, seen] of [consoleSeen, notesSeen, tasksSeen].entries()) {
      for (const other of subs.filter((_, at) => at !== index)) expect(seen.text).not.toContain(other);
    }

    // Back to each: answered at once, each knowing the person as before.
    for (const [app, sub] of [
      [console, consoleSeen.sub],
      [notes, notesSeen.sub],
      [tasks, tasksSeen.sub],
    ] as const) {
      const back = await startSignedIn(app, jar);
      const tokens = await back.driver.exchange(back.callback);
      expect(tokens.claims()?.sub).toBe(sub);
      expect(JSON.stringify(tokens)).not.toContain(subs.find((other) => other !== sub));
    }
  });

  it("answers prompt=none for apps whose identity is chosen, and asks to choose for the others", async () => {
    const jar = new CookieJar();
    const first = await start(notes, jar);
    await signIn(first, "tomaz");
    const sub = (await choose(first)).claims()?.sub;

    const silent = await startSignedIn(notes, jar, { prompt: "none" });
    expect((await silent.driver.exchange(silent.callback)).claims()?.sub).toBe(sub);

    const elsewhere = await startSignedIn(unused, jar, { prompt: "none" });
    expect(elsewhere.callback.searchParams.get("error")).toBe("account_selection_required");
    expect(elsewhere.callback.searchParams.get("state")).toBe(elsewhere.driver.state);

    // Another browser is signed in nowhere.
    const stranger = await startSignedIn(notes, new CookieJar(), { prompt: "none" });
    expect(stranger.callback.searchParams.get("error")).toBe("login_required");
  });

  it("asks for credentials again with prompt=login and when max_age has passed, and keeps the identity", async () => {
    const jar = new CookieJar();
    const first = await start(notes, jar);
    await signIn(first, "vida");
    const firstTokens = await choose(first);
    const sub = firstTokens.claims()?.sub;

    const again = await start(notes, jar, { prompt: "login" });
    expect((await again.get()).completed).toEqual([]);
    expect((await signIn(again, "vida")).completed).toEqual(["signin"]);
    expect((await choose(again)).claims()?.sub).toBe(sub);

    // Within max_age the app is answered at once; once it has passed, the person signs in again.
    const recent = await startSignedIn(notes, jar, { max_age: "3600" });
    expect((await recent.driver.exchange(recent.callback)).claims()?.sub).toBe(sub);
    await expect
      .poll(async () => (await (await start(notes, jar, { max_age: "1" })).get()).completed)
      .toEqual([]);
    const stale = await start(notes, jar, { max_age: "1" });
    await signIn(stale, "vida");
    const tokens = await choose(stale);
    expect(tokens.claims()?.sub).toBe(sub);
    expect(Number(tokens.claims()?.auth_time)).toBeGreaterThan(Number(firstTokens.claims()?.auth_time));
  });

  it("shows the identity step with prompt=select_account, where another identity becomes the app's", async () => {
    const jar = new CookieJar();
    const first = await start(notes, jar, { scope: "openid profile offline_access", prompt: "consent" });
    await signIn(first, "zala");
    const firstTokens = await choose(first);
    const firstSub = firstTokens.claims()?.sub;
    expect(firstTokens.refresh_token).toBeDefined();

    const choosing = await start(notes, jar, { prompt: "select_account" });
    expect(await choosing.get()).toMatchObject({ completed: ["signin"], singleSignOn: true });
    const [offered] = await choosing.identities();
    expect(offered?.membership).toMatchObject({ chosenForApp: true });
    const work = await choosing.createIdentity({ username: "zala-work" });
    const workTokens = await choose(choosing, work);
    const workSub = workTokens.claims()?.sub;
    expect(workSub).not.toBe(firstSub);
    expect(workTokens.claims()?.preferred_username).toBe("zala-work");

    // The app's tokens of the identity used before go on speaking for it; the new choice is remembered.
    const refreshed = await client.refreshTokenGrant(first.config, firstTokens.refresh_token ?? "");
    expect(refreshed.claims()?.sub).toBe(firstSub);
    const silent = await startSignedIn(notes, jar, { prompt: "none" });
    expect((await silent.driver.exchange(silent.callback)).claims()?.sub).toBe(workSub);
  });

  it("signs out of every app at once", async () => {
    const jar = new CookieJar();
    const first = await start(notes, jar);
    await signIn(first, "ziga");
    const tokens = await choose(first);
    const atTasks = await start(tasks, jar);
    await choose(atTasks);

    const logout = client.buildEndSessionUrl(first.config, { id_token_hint: tokens.id_token ?? "" });
    await confirmLogout(first, (await confirmationPage(first, logout)).page.xsrf);

    for (const app of [notes, tasks]) {
      const after = await startSignedIn(app, jar, { prompt: "none" });
      expect(after.callback.searchParams.get("error")).toBe("login_required");
    }
  });
});
