import { decodeJwt } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountSessionsSchema,
  connectedAppsSchema,
  type AccountSessions,
} from "../src/common/api/account-sessions.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { deviceOf } from "../src/server/accounts/user-agent.ts";
import { ssoSessionCookie } from "../src/server/oidc/provider.ts";
import type { TestApp } from "./support/apps.ts";
import { browserFetch, CookieJar } from "./support/browser.ts";
import { consoleSignUp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { LogoutReceiver } from "./support/logout-receiver.ts";
import { organizationWithAppToldOfLogouts } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// The account page's browsers (single sign-on sessions) and connected apps: two browsers of one
// person signed in, one signed out from the other, on two instances of one store; an app given a
// refresh token, disconnected. openid-client plays the app; a receiver on loopback is its back-channel
// logout endpoint.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe("the device named by a user agent", () => {
  it("names the major browsers and systems, and nothing it does not know", () => {
    const chromeOnWindows =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(deviceOf(chromeOnWindows)).toEqual({ browser: "Chrome", os: "Windows", mobile: false });
    expect(deviceOf(`${chromeOnWindows} Edg/131.0.0.0`)).toMatchObject({ browser: "Edge" });
    expect(
      deviceOf(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      ),
    ).toEqual({ browser: "Safari", os: "iOS", mobile: true });
    expect(
      deviceOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0"),
    ).toEqual({ browser: "Firefox", os: "macOS", mobile: false });
    expect(
      deviceOf(
        "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
      ),
    ).toEqual({ browser: "Samsung Internet", os: "Android", mobile: true });
    expect(
      deviceOf(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      ),
    ).toEqual({ browser: "Chrome", os: "Linux", mobile: false });
    expect(deviceOf("node")).toEqual({ mobile: false });
  });
});

describe.each(storeEngines)("the account's browsers and apps on $name", ({ url }) => {
  let server: TestServer;
  /** Another instance of the same deployment: same store, its own process state. */
  let second: TestServer;
  let receiver: LogoutReceiver;
  let app: TestApp;
  let auth: client.ClientAuth;

  beforeAll(async () => {
    const store = url ? { postgresUrl: url } : {};
    server = await startTestServer({ ...store, args: ["--backchannel-logout-private"] });
    // The same deployment's issuer, as behind one load balancer; requests reach it on its own port.
    second = await startTestServer({
      ...store,
      shareStoreOf: server,
      args: ["--backchannel-logout-private", "--issuer", server.issuer],
    });
    receiver = await LogoutReceiver.start();
    ({ app, auth } = await organizationWithAppToldOfLogouts(
      await consoleSignUp(server.url, "olga"),
      "Paper Mill",
      receiver.url,
      {
        appName: "Notebook",
        idScopes: ["openid", "profile", "email"],
        backendClient: { additionalScopes: ["offline_access"] },
      },
    ));
  });
  afterAll(async () => {
    await second.dispose();
    await server.dispose();
    await receiver.close();
  });

  /** The account page's calls from the browser of `person`: its cookies and its console token. */
  const pageOf =
    (person: Person, base = server.url) =>
    (path: string, body?: unknown) =>
      fetch(base + path, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${person.tokens.access_token}`,
          "content-type": "application/json",
          cookie: person.driver.jar.header(base + path),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

  async function sessionsOf(person: Person): Promise<AccountSessions["sessions"]> {
    const response = await pageOf(person)("/api/account/sessions");
    expect(response.status).toBe(200);
    return accountSessionsSchema.parse(await response.json()).sessions;
  }

  /** Where the app's sign-in with `prompt=none` in the browser of `jar` at the second instance sends it back. */
  async function silentSignIn(jar: CookieJar): Promise<URL> {
    const request = new URL("/auth/oidc/authorize", second.url);
    request.search = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: "code",
      scope: "openid",
      prompt: "none",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const response = await browserFetch(jar)(request.href);
    expect(response.status).toBe(303);
    return new URL(response.headers.get("location") ?? "");
  }

  /** The app's configuration, its calls going to the second instance. */
  async function appAtSecond(): Promise<client.Configuration> {
    const config = await client.discovery(new URL(server.issuer), app.clientId, undefined, auth);
    config[client.customFetch] = (target, options) =>
      fetch(target.replace(server.url, second.url), options as RequestInit);
    return config;
  }

  /** The person signs in to the app in this browser, choosing their first identity, with a refresh token. */
  async function signInToApp(jar: CookieJar) {
    const driver = await FlowDriver.start(
      server.url,
      app,
      { scope: "openid profile email offline_access", prompt: "consent" },
      auth,
      jar,
    );
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id } });
    await driver.step("redirect");
    return driver.exchange(await driver.returnToApp());
  }

  const activityTypes = async (person: Person) => {
    const response = await pageOf(person)("/api/activity?category=signIns");
    return activityPageSchema.parse(await response.json()).items.map(({ type }) => type);
  };

  it("lists each browser once, the calling one marked, and signs one out at once on every instance", async () => {
    const laptop = await consoleSignUp(server.url, "bea");
    const phone = await consoleSignUp(server.url, "bea");
    const phoneAppTokens = await signInToApp(phone.driver.jar);

    const listed = await sessionsOf(laptop);
    expect(listed).toHaveLength(2);
    expect(listed.filter(({ current }) => current)).toHaveLength(1);
    const [fromPhone] = await sessionsOf(phone);
    expect(fromPhone?.current).toBe(true);
    const phoneSession = listed.find(({ current }) => !current);
    expect(phoneSession?.id).toBe(fromPhone?.id);
    // Nothing in the answer is, or leads to, the browsers' cookies.
    const answer = JSON.stringify(listed);
    for (const person of [laptop, phone]) {
      expect(answer).not.toContain(person.driver.jar.value(ssoSessionCookie) ?? "?");
    }
    expect(Date.parse(phoneSession?.lastActiveAt ?? "")).toBeGreaterThanOrEqual(
      Date.parse(phoneSession?.signedInAt ?? ""),
    );

    // The phone is signed in at both instances, to its app and to the console.
    expect((await silentSignIn(phone.driver.jar)).searchParams.has("code")).toBe(true);
    const received = receiver.tokens.length;

    const ended = await pageOf(laptop)(`/api/account/sessions/end/${phoneSession?.id ?? ""}`, {});
    expect(ended.status).toBe(200);
    expect(accountSessionsSchema.parse(await ended.json()).sessions.map(({ current }) => current)).toEqual([
      true,
    ]);

    // Signed out at once, also at the other instance: no app answered, no console call made.
    expect((await silentSignIn(phone.driver.jar)).searchParams.get("error")).toBe("login_required");
    expect((await pageOf(phone, second.url)("/api/account")).status).toBe(401);
    await expect(
      client.refreshTokenGrant(await appAtSecond(), phoneAppTokens.refresh_token ?? ""),
    ).rejects.toThrow();
    // The app heard of it by back-channel logout, for the session the phone signed in to it with.
    expect(receiver.tokens.length).toBe(received + 1);
    const logout = decodeJwt(receiver.tokens.at(-1) ?? "");
    expect(logout.sid).toBe(phoneAppTokens.claims()?.sid);
    expect(logout.sub).toBe(phoneAppTokens.claims()?.sub);

    // The laptop goes on, and its person reads what happened.
    expect((await pageOf(laptop)("/api/account")).status).toBe(200);
    expect(await activityTypes(laptop)).toContain("sessionEnd");
  });

  it("signs the browser out once when it is ended twice at once, and never another account's", async () => {
    const first = await consoleSignUp(server.url, "cene");
    const other = await consoleSignUp(server.url, "cene");
    const stranger = await consoleSignUp(server.url, "dora");
    const target = (await sessionsOf(first)).find(({ current }) => !current);
    const path = `/api/account/sessions/end/${target?.id ?? ""}`;

    expect((await pageOf(stranger)(path, {})).status).toBe(404);
    expect((await pageOf(stranger)("/api/account/sessions/end/x", {})).status).toBe(404);
    expect((await fetch(`${server.url}${path}`, { method: "POST" })).status).toBe(401);
    expect((await pageOf(first)(path, { extra: 1 })).status).toBe(400);

    const statuses = await Promise.all([pageOf(first)(path, {}), pageOf(first)(path, {})]);
    expect(statuses.map(({ status }) => status).sort()).toEqual([200, 404]);
    const raced: unknown = await statuses.find(({ status }) => status === 404)?.json();
    expect(raced).toMatchObject({ error: "sessionNotFound" });
    expect((await pageOf(other)("/api/account")).status).toBe(401);
    expect(await sessionsOf(first)).toHaveLength(1);
  });

  it("signs out everywhere else, the calling browser staying signed in", async () => {
    const people = [
      await consoleSignUp(server.url, "ema"),
      await consoleSignUp(server.url, "ema"),
      await consoleSignUp(server.url, "ema"),
    ];
    const [here, ...elsewhere] = people;
    if (!here) throw new Error("no browser");
    expect(await sessionsOf(here)).toHaveLength(3);
    const response = await pageOf(here)("/api/account/sessions/endOthers", {});
    expect(response.status).toBe(200);
    expect(accountSessionsSchema.parse(await response.json()).sessions).toEqual([
      expect.objectContaining({ current: true }),
    ]);
    for (const person of elsewhere) {
      expect((await pageOf(person, second.url)("/api/account")).status).toBe(401);
    }
    expect((await pageOf(here)("/api/account")).status).toBe(200);
  });

  it("ends the sign-ins under way in the browsers it signs out, keeping the calling browser's", async () => {
    const here = await consoleSignUp(server.url, "ivo");
    const there = await consoleSignUp(server.url, "ivo");
    /** The browser, signed in already, begins signing in to the app: it is at the identity step. */
    const beginSignIn = async (person: Person) => {
      const flow = await FlowDriver.start(
        server.url,
        app,
        { scope: "openid profile" },
        auth,
        person.driver.jar,
      );
      expect((await flow.get()).singleSignOn).toBe(true);
      return flow;
    };
    const ownFlow = await beginSignIn(here);
    const otherFlow = await beginSignIn(there);
    const listed = (flow: FlowDriver) => flow.fetch(`${server.url}/api/i?flow=${flow.flowId}`);
    expect((await listed(otherFlow)).status).toBe(200);

    expect((await pageOf(here)("/api/account/sessions/endOthers", {})).status).toBe(200);
    // The other browser's sign-in shows nothing more of the account, and cannot finish.
    expect((await listed(otherFlow)).status).toBe(401);
    const [identity] = await ownFlow.identities();
    expect((await otherFlow.raw("chooseIdentity", { identity: { id: identity?.id } })).status).toBe(401);
    // The calling browser's own goes on to the app.
    await ownFlow.step("chooseIdentity", { identity: { id: identity?.id } });
    await ownFlow.step("redirect");
    expect((await ownFlow.returnToApp()).searchParams.has("code")).toBe(true);
  });

  it("lists the apps given an identity, and disconnecting one ends its refresh token at once", async () => {
    const person = await consoleSignUp(server.url, "fran");
    const tokens = await signInToApp(person.driver.jar);
    const config = await appAtSecond();

    const listed = connectedAppsSchema.parse(await (await pageOf(person)("/api/account/apps")).json());
    const notebook = listed.apps.find(({ id }) => id === app.applicationId);
    expect(notebook).toMatchObject({
      organizationName: "Paper Mill",
      applicationName: "Notebook",
      identityName: "fran",
      personalData: ["profile", "email"],
      offlineAccess: true,
      appScopes: [],
      console: false,
    });
    expect(listed.apps.find(({ console }) => console)).toBeDefined();
    // The app's own identifier of the person is not what the page shows.
    expect(JSON.stringify(listed)).not.toContain(tokens.claims()?.sub ?? "?");

    // Disconnected on one instance, the refresh token fails on the other at once.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "");
    // Disconnected twice at once: once.
    const path = `/api/account/apps/disconnect/${app.applicationId}`;
    const answers = await Promise.all([pageOf(person)(path, {}), pageOf(person)(path, {})]);
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 404]);
    const disconnected = answers.find(({ status }) => status === 200);
    const left = connectedAppsSchema.parse(await disconnected?.json()).apps;
    expect(left.map(({ id }) => id)).not.toContain(app.applicationId);
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect(await client.tokenIntrospection(config, refreshed.access_token).then(({ active }) => active)).toBe(
      false,
    );

    // The next sign-in to it asks again which identity it gets, though the browser is signed in.
    const again = await FlowDriver.start(server.url, app, {}, auth, person.driver.jar);
    expect(again.flowId).not.toBe("");
    expect(await activityTypes(person)).toContain("appDisconnect");

    expect(
      (await activityTypes(person)).filter((type) => type === "appDisconnect"),
      "recorded once",
    ).toHaveLength(1);
    const console = listed.apps.find((candidate) => candidate.console);
    const refused = await pageOf(person)(`/api/account/apps/disconnect/${console?.id ?? ""}`, {});
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "consoleAppNotDisconnectable" });
  });
});
