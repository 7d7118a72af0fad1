import { createHash } from "node:crypto";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let app: TestApp;
let otherApp: TestApp;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({
    args: mailArgs(smtp.port),
  });
  app = await registerTestApp(server.db, "Notes");
  otherApp = await registerTestApp(server.db, "Other");
});
afterAll(async () => {
  await server.dispose();
  await smtp.close();
});

const start = (target = app, parameters?: Record<string, string>) =>
  FlowDriver.start(server.issuer, target, parameters);

/** Signs up or in with a username and password and chooses the first identity offered. */
async function signInWithPassword(driver: FlowDriver, username: string, password: string) {
  expect((await driver.step("passwordStart", { emailOrUsername: username })).status).toBe(200);
  const { status, flow } = await driver.step("passwordComplete", { password });
  expect(status).toBe(200);
  return flow;
}

/** Chooses the identity (the first one offered unless told) and gets the flow ready to send the person back. */
async function chooseIdentity(driver: FlowDriver, identityId?: string) {
  const id = identityId ?? (await driver.identities())[0]?.id ?? "";
  expect((await driver.step("chooseIdentity", { identity: { id } })).flow.completed.at(-1)).toBe("identity");
  expect((await driver.step("redirect")).flow.completed.at(-1)).toBe("finishReady");
}

async function chooseAndReturn(driver: FlowDriver, identityId?: string) {
  await chooseIdentity(driver, identityId);
  return driver.returnToApp();
}

/** What the browser is answered on its way from the finished flow's page until it leaves Vrata. */
async function wayBack(driver: FlowDriver): Promise<Response[]> {
  const responses: Response[] = [];
  let url = `${server.issuer}/auth/${driver.flowId}`;
  while (url.startsWith(server.issuer) && responses.length < 5) {
    const response = await driver.fetch(url);
    responses.push(response);
    url = new URL(response.headers.get("location") ?? "", app.redirectUri).href;
  }
  return responses;
}

describe("username and password", () => {
  it("signs a new username up, and the app gets tokens for the identity it made", async () => {
    const driver = await start();
    const initial = await driver.get();
    expect(initial).toMatchObject({
      completed: [],
      appName: "Notes",
      organizationName: "Notes organization",
    });

    const flow = await signInWithPassword(driver, "Alice_1", "correct horse battery");
    expect(flow.completed).toEqual(["signup"]);
    expect(driver.jar.has(`__Host-session-${driver.flowId}`)).toBe(true);
    const identities = await driver.identities();
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ username: "Alice_1", membership: null, canUpdate: true });

    const callback = await chooseAndReturn(driver);
    expect(callback.origin + callback.pathname).toBe(app.redirectUri);
    const tokens = await driver.exchange(callback);
    const claims = tokens.claims();
    expect(claims?.sub).toMatch(/^[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(claims?.sub).not.toBe(identities[0]?.id);
    expect(claims).toMatchObject({
      preferred_username: "Alice_1",
      aud: app.clientId,
      azp: app.clientId,
      nonce: driver.nonce,
    });
    // When the person proved who they are, though the app did not ask (max_age) for it.
    expect(claims?.auth_time).toBeTypeOf("number");
    expect(claims?.auth_time).toBeLessThanOrEqual(claims?.iat ?? 0);
    expect(claims?.auth_time).toBeGreaterThan((claims?.iat ?? 0) - 60);
    const userinfo = await client.fetchUserInfo(driver.config, tokens.access_token, claims?.sub ?? "");
    expect(userinfo).toEqual({ sub: claims?.sub, preferred_username: "Alice_1" });

    // The flow is over: the page now says so instead of redirecting again.
    const after = await driver.get();
    expect(after.completed.at(-1)).toBe("finished");
    expect(after.homepage).toBe("https://app.example/");
  });

  it("signs an existing username in case-insensitively, and a wrong password is reported", async () => {
    const first = await start();
    await signInWithPassword(first, "bob.smith", "a long passphrase");
    await chooseAndReturn(first);

    const driver = await start();
    await driver.step("passwordStart", { emailOrUsername: "Bob.Smith" });
    const wrong = await driver.step("passwordComplete", { password: "not the passphrase" });
    expect(wrong).toMatchObject({ status: 400, flow: { error: "wrongPassword", completed: [] } });
    const right = await driver.step("passwordComplete", { password: "a long passphrase" });
    expect(right.flow.completed).toEqual(["signin"]);
    const [identity] = await driver.identities();
    expect(identity?.membership).toEqual({ status: "active", usedWithApp: true, chosenForApp: true });
  });

  it("gives the same person a different sub in another organization", async () => {
    const driver = await start();
    await signInWithPassword(driver, "carol", "carol's passphrase");
    const firstSub = (await driver.exchange(await chooseAndReturn(driver))).claims()?.sub;
    const other = await start(otherApp);
    await signInWithPassword(other, "carol", "carol's passphrase");
    const otherSub = (await other.exchange(await chooseAndReturn(other))).claims()?.sub;
    expect(otherSub).toBeDefined();
    expect(otherSub).not.toBe(firstSub);
  });

  it("carries one sign-in to another organization's app, which knows the person by another ID", async () => {
    const driver = await start();
    await signInWithPassword(driver, "cilka", "cilka's passphrase");
    const firstSub = (await driver.exchange(await chooseAndReturn(driver))).claims()?.sub;
    // Signed in already: the other organization's app starts at the identity step.
    const other = await FlowDriver.start(server.issuer, otherApp, {}, undefined, driver.jar);
    expect((await other.get()).completed).toEqual(["signin"]);
    const otherSub = (await other.exchange(await chooseAndReturn(other))).claims()?.sub;
    expect(otherSub).toBeDefined();
    expect(otherSub).not.toBe(firstSub);
    // And back again, the first app is answered at once, and knows the person as before.
    const back = await FlowDriver.startSignedIn(server.issuer, app, {}, undefined, driver.jar);
    expect((await back.driver.exchange(back.callback)).claims()?.sub).toBe(firstSub);
  });

  it("answers validation mistakes at the step", async () => {
    const driver = await start();
    const cases: [string, unknown, string][] = [
      ["passwordStart", { emailOrUsername: "ab" }, "shortEmailOrUsername"],
      ["passwordStart", { emailOrUsername: "a b c" }, "invalidEmailOrUsername"],
      ["passwordStart", { emailOrUsername: "henryⅣ" }, "invalidEmailOrUsername"],
      ["codeStart", { emailOrUsername: "nobody-here" }, "noEmails"],
    ];
    for (const [step, body, error] of cases) {
      expect(await driver.step(step, body)).toMatchObject({ status: 400, flow: { error } });
    }
    await driver.step("passwordStart", { emailOrUsername: "dave" });
    expect((await driver.step("passwordComplete", { password: "short" })).flow.error).toBe("shortPassword");
    expect((await driver.step("passwordComplete", { password: "tab\there!" })).flow.error).toBe(
      "invalidPassword",
    );
  });
});

describe("e-mail code", () => {
  it("signs a new e-mail up only with the code from the real e-mail, and its link pre-fills it", async () => {
    const driver = await start();
    const { flow } = await driver.step("codeStart", { emailOrUsername: "Erin@Example.com" });
    expect(flow).toMatchObject({ providers: ["code"], emailOrUsername: "Erin@Example.com", codesSent: 1 });
    const mail = await smtp.waitFor("Erin@Example.com");
    expect(mail.text).toContain(`${server.issuer}/auth/${driver.flowId}#code=`);
    expect(mail.subject).toBe("Your code for Vrata");

    expect(
      await driver.step("codeComplete", { code: "000000" === codeIn(mail) ? "111111" : "000000" }),
    ).toMatchObject({
      status: 400,
      flow: { error: "invalidCode" },
    });
    const done = await driver.step("codeComplete", { code: ` ${codeIn(mail)} ` });
    expect(done.flow.completed).toEqual(["signup"]);
    const [identity] = await driver.identities();
    expect(identity).toMatchObject({ email: "Erin@Example.com", username: "Erin" });

    const tokens = await driver.exchange(await chooseAndReturn(driver));
    const userinfo = await client.fetchUserInfo(
      driver.config,
      tokens.access_token,
      tokens.claims()?.sub ?? "",
    );
    expect(userinfo).toMatchObject({ email: "Erin@Example.com", email_verified: true });
  });

  it("names an app in the e-mail only when its name cannot carry a link", async () => {
    const phishing = await registerTestApp(
      server.db,
      "URGENT: account locked, visit https://evil.example/unlock",
    );
    await (await start(phishing)).step("codeStart", { emailOrUsername: "ivy@example.com" });
    const warned = await smtp.waitFor("ivy@example.com");
    expect(warned.text).not.toContain("evil");
    expect(warned.text).toContain("sign up to an app through Vrata");

    await (await start()).step("codeStart", { emailOrUsername: "jon@example.com" });
    expect((await smtp.waitFor("jon@example.com")).text).toContain("the app “Notes” through Vrata");
  });

  it("needs the code for an e-mail and password sign-up, then a wrong password falls back to a code", async () => {
    const driver = await start();
    await driver.step("passwordStart", { emailOrUsername: "frank@example.com" });
    const pending = await driver.step("passwordComplete", { password: "frank's passphrase" });
    expect(pending).toMatchObject({ status: 200, flow: { completed: [], providers: ["password", "code"] } });
    const signup = await driver.step("codeComplete", {
      code: codeIn(await smtp.waitFor("frank@example.com")),
    });
    expect(signup.flow.completed).toEqual(["signup"]);

    const again = await start();
    expect((await signInWithPassword(again, "FRANK@example.com", "frank's passphrase")).completed).toEqual([
      "signin",
    ]);

    const wrong = await start();
    await wrong.step("passwordStart", { emailOrUsername: "frank@example.com" });
    const recovered = await wrong.step("passwordComplete", { password: "forgot it again" });
    expect(recovered).toMatchObject({
      status: 200,
      flow: { completed: [], providers: ["password", "code"] },
    });
    const code = codeIn(await smtp.waitFor("frank@example.com", 2));
    expect((await wrong.step("codeComplete", { code })).flow.completed).toEqual(["signin"]);
  });

  it("counts resends, refuses one too soon, and keeps earlier codes valid", async () => {
    const driver = await start();
    await driver.step("codeStart", { emailOrUsername: "gina@example.com" });
    const tooSoon = await driver.step("codeStart", { emailOrUsername: "gina@example.com" });
    expect(tooSoon).toMatchObject({ status: 400, flow: { error: "codeRecentlySent", codesSent: 1 } });
    const code = codeIn(await smtp.waitFor("gina@example.com"));
    expect((await driver.step("codeComplete", { code })).flow.completed).toEqual(["signup"]);
  });

  it("fails the flow after 10 wrong codes and sends the app access_denied", async () => {
    const driver = await start();
    await driver.step("codeStart", { emailOrUsername: "hank@example.com" });
    const real = codeIn(await smtp.waitFor("hank@example.com"));
    const wrong = real === "123456" ? "654321" : "123456";
    for (let attempt = 1; attempt < 10; attempt++) {
      expect((await driver.step("codeComplete", { code: wrong })).flow.error).toBe("invalidCode");
    }
    const failed = await driver.step("codeComplete", { code: wrong });
    expect(failed.flow.completed).toEqual(["failed"]);
    expect((await driver.raw("codeComplete", { code: real })).status).toBe(400);
    expect((await driver.step("redirect")).flow.completed).toEqual(["failed", "finishReady"]);
    const callback = await driver.returnToApp();
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(driver.state);
  });
});

describe("after the sign-in", () => {
  it("declines: the app gets access_denied", async () => {
    const driver = await start();
    await signInWithPassword(driver, "ivan", "ivan's passphrase");
    expect((await driver.step("decline")).flow.completed).toEqual(["signup", "declined"]);
    await driver.step("redirect");
    expect((await driver.returnToApp()).searchParams.get("error")).toBe("access_denied");
  });

  it("joins the organization only once the flow completes: a choice then a decline leaves no trace", async () => {
    const organizationTrace = async () => ({
      members: await server.db
        .selectFrom("identity_organizations")
        .select("identity_id")
        .where("organization_id", "=", otherApp.organizationId)
        .execute(),
      activities: await server.db
        .selectFrom("activity_organizations")
        .select("activity_id")
        .where("organization_id", "=", otherApp.organizationId)
        .execute(),
    });
    const before = await organizationTrace();
    const driver = await start(otherApp);
    await signInWithPassword(driver, "iris", "iris's passphrase");
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id ?? "" } });
    expect((await driver.step("decline")).flow.completed).toEqual(["signup", "declined"]);
    await driver.step("redirect");
    expect((await driver.returnToApp()).searchParams.get("error")).toBe("access_denied");
    expect(await organizationTrace()).toEqual(before);

    // Completed with the identity, the flow joins it.
    const again = await start(otherApp);
    await signInWithPassword(again, "iris", "iris's passphrase");
    await chooseAndReturn(again, identity?.id);
    expect((await organizationTrace()).members).toContainEqual({ identity_id: identity?.id });
  });

  it("restarts without the session cookie and without resetting attempts", async () => {
    const driver = await start();
    await signInWithPassword(driver, "judy", "judy's passphrase");
    const restarted = await driver.step("restartAuth");
    expect(restarted.flow.completed).toEqual([]);
    expect(driver.jar.has(`__Host-session-${driver.flowId}`)).toBe(false);
    // The identity step after the next sign-in still says what the app asks for.
    expect(restarted.flow.personalData).toEqual(["profile", "email"]);
  });

  it("creates an identity inline and chooses it", async () => {
    const driver = await start();
    await signInWithPassword(driver, "kim", "kim's passphrase");
    const id = await driver.createIdentity({ givenName: "Kim", fullName: "Kim Work" });
    expect((await driver.identities()).map((identity) => identity.id)).toContain(id);
    const tokens = await driver.exchange(await chooseAndReturn(driver, id));
    expect(tokens.claims()).toMatchObject({ given_name: "Kim", name: "Kim Work" });
    expect(tokens.claims()?.preferred_username).toBeUndefined();
  });

  it("refuses steps from a browser without the flow's session", async () => {
    const driver = await start();
    await signInWithPassword(driver, "leo", "leo's passphrase");
    const stranger = await fetch(`${server.issuer}/api/auth/decline/${driver.flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(stranger.status).toBe(401);
    expect(await stranger.json()).toMatchObject({ error: "unauthorized" });
  });
});

describe("tokens", () => {
  it("refreshes with rotation, introspects and revokes", async () => {
    const driver = await start(app, { scope: "openid profile email offline_access", prompt: "consent" });
    await signInWithPassword(driver, "mia", "mia's passphrase");
    const tokens = await driver.exchange(await chooseAndReturn(driver));
    expect(tokens.refresh_token).toBeDefined();
    const refreshed = await client.refreshTokenGrant(driver.config, tokens.refresh_token ?? "");
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()?.sub).toBe(tokens.claims()?.sub);
    // A refreshed ID token still says when the person signed in and for which app.
    expect(refreshed.claims()).toMatchObject({ azp: app.clientId, auth_time: tokens.claims()?.auth_time });

    const active = await client.tokenIntrospection(driver.config, refreshed.access_token);
    expect(active).toMatchObject({ active: true, sub: tokens.claims()?.sub, client_id: app.clientId });

    // Replaying the rotated refresh token fails and revokes what the grant issued (reuse detection).
    expect((await client.tokenIntrospection(driver.config, refreshed.refresh_token ?? "")).active).toBe(true);
    await expect(client.refreshTokenGrant(driver.config, tokens.refresh_token ?? "")).rejects.toThrow();
    const introspect = (token: string | undefined) => client.tokenIntrospection(driver.config, token ?? "");
    expect((await introspect(refreshed.refresh_token)).active).toBe(false);
    expect((await introspect(refreshed.access_token)).active).toBe(false);
  });

  it("revokes an access token", async () => {
    const driver = await start();
    await signInWithPassword(driver, "mia2", "mia's passphrase");
    const tokens = await driver.exchange(await chooseAndReturn(driver));
    expect((await client.tokenIntrospection(driver.config, tokens.access_token)).active).toBe(true);
    await client.tokenRevocation(driver.config, tokens.access_token);
    expect((await client.tokenIntrospection(driver.config, tokens.access_token)).active).toBe(false);
    const sub = tokens.claims()?.sub ?? "";
    await expect(client.fetchUserInfo(driver.config, tokens.access_token, sub)).rejects.toThrow();
  });

  it("refuses a replayed code and revokes what it issued", async () => {
    const driver = await start();
    await signInWithPassword(driver, "ned", "ned's passphrase");
    const callback = await chooseAndReturn(driver);
    const tokens = await driver.exchange(callback);
    await expect(driver.exchange(callback)).rejects.toThrow();
    expect((await client.tokenIntrospection(driver.config, tokens.access_token)).active).toBe(false);
  });
});

describe("writes a browser could be tricked into", () => {
  it("are refused without a JSON body or from another origin, and change nothing", async () => {
    const driver = await start();
    await signInWithPassword(driver, "csrf-target", "a long passphrase");
    const post = (path: string, headers: Record<string, string>, body?: string) =>
      driver.fetch(`${server.issuer}${path}`, {
        method: "POST",
        headers,
        ...(body === undefined ? {} : { body }),
      });
    const json = { "content-type": "application/json" };
    const refused: [string, Record<string, string>, string?, number?][] = [
      [`/api/auth/decline/${driver.flowId}`, {}, undefined, 415],
      [`/auth/decline/${driver.flowId}`, {}, undefined, 415],
      [`/api/auth/restartAuth/${driver.flowId}`, { "content-type": "text/plain" }, "{}", 415],
      [
        `/api/auth/decline/${driver.flowId}`,
        { "content-type": "application/x-www-form-urlencoded" },
        "",
        415,
      ],
      [`/api/auth/decline/${driver.flowId}`, { ...json, origin: "https://evil.example" }, "{}", 403],
      [`/api/auth/decline/${driver.flowId}`, { ...json, origin: "null" }, "{}", 403],
      [`/api/auth/decline/${driver.flowId}`, { ...json, "sec-fetch-site": "same-site" }, "{}", 403],
      [`/api/auth/decline/${driver.flowId}`, { ...json, "sec-fetch-site": "cross-site" }, "{}", 403],
      ["/auth/signout", {}, undefined, 415],
      ["/api/auth/signout", { ...json, "sec-fetch-site": "same-site" }, "{}", 403],
      [`/api/i/create?flow=${driver.flowId}`, { "content-type": "text/plain" }, '{"username":"x"}', 415],
      [
        `/api/i/create?flow=${driver.flowId}`,
        { ...json, origin: "https://sub.localhost" },
        '{"username":"x"}',
        403,
      ],
    ];
    // Every console call accepts the flow's cookie in place of a token (`?flow=`), so each is checked.
    const [identity] = await driver.identities();
    const someInvitation = "1111111111111111111111";
    refused.push(
      [
        `/api/o/create?flow=${driver.flowId}`,
        { ...json, origin: "https://sub.localhost" },
        '{"name":"x"}',
        403,
      ],
      [
        `/api/i/accept/${identity?.id ?? ""}/${someInvitation}?flow=${driver.flowId}`,
        { "content-type": "text/plain", "sec-fetch-site": "same-site" },
        "{}",
        403,
      ],
    );
    for (const [path, headers, body, status] of refused) {
      const response = await post(path, headers, body);
      expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
      expect(await response.json()).toMatchObject({
        error: status === 403 ? "forbidden" : "unsupportedMediaType",
      });
    }
    expect(await driver.identities()).toHaveLength(1);
    expect((await driver.get()).completed).toEqual(["signup"]);

    // The flow's own page sends both headers, naming this site.
    const ownPage = { ...json, origin: new URL(server.issuer).origin, "sec-fetch-site": "same-origin" };
    const declined = await post(`/api/auth/decline/${driver.flowId}`, ownPage, "{}");
    expect(declined.status).toBe(200);
  });
});

describe("malformed steps", () => {
  it("get a 4xx JSON error, never a 500, and change nothing", async () => {
    const driver = await start();
    const bodies: [string, unknown, string?][] = [
      ["passwordStart", "{nope"],
      ["passwordStart", { emailOrUsername: 42 }],
      ["passwordStart", { emailOrUsername: "x", extra: true }],
      ["passwordStart", { emailOrUsername: "x".repeat(5000) }],
      ["passwordComplete", { password: "before start" }],
      ["codeComplete", { code: "123456" }],
      ["chooseIdentity", { identity: {} }],
      ["chooseIdentity", { identity: { id: "x" } }],
      ["decline", {}],
      ["restartAuth", {}],
      ["passwordStart", "emailOrUsername=x", "application/x-www-form-urlencoded"],
      ["passwordStart", "null"],
    ];
    for (const [name, body, type] of bodies) {
      const response = await driver.raw(name, body, type);
      expect(response.status, `${name} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${name} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(await response.json()).toHaveProperty("error");
    }
    expect((await driver.get()).completed).toEqual([]);
    const unknown = await fetch(`${server.issuer}/api/auth/passwordStart/unknownflow`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ emailOrUsername: "someone" }),
    });
    expect(unknown.status).toBe(404);
  });
});

describe("language", () => {
  it("writes the code e-mail in the language the app asked for with ui_locales", async () => {
    const driver = await start(app, { ui_locales: "sl en" });
    expect((await driver.get()).locale).toBe("sl");
    await driver.step("codeStart", { emailOrUsername: "spela@example.com" });
    const mail = await smtp.waitFor("spela@example.com");
    expect(mail.subject).toBe("Vaša koda za storitev Vrata");
    expect(mail.text).toContain("Koda velja 10 minut.");
  });

  it("writes it in the browser's language otherwise", async () => {
    const driver = await start();
    await driver.raw("codeStart", { emailOrUsername: "tone@example.com" }, "application/json");
    expect((await smtp.waitFor("tone@example.com")).text).toContain("The code is valid for 10 minutes.");
  });
});

describe("response_mode=form_post", () => {
  it("answers with a page that may run its own script and nothing else", async () => {
    const driver = await start(app, { response_mode: "form_post" });
    await signInWithPassword(driver, "form-poster", "a long passphrase");
    await chooseIdentity(driver);
    const response = (await wayBack(driver)).at(-1);
    const page = (await response?.text()) ?? "";
    expect(page).toContain(`action="${app.redirectUri}"`);
    const script = /<script>([^<]*)<\/script>/.exec(page)?.[1] ?? "";
    const hash = createHash("sha256").update(script).digest("base64");
    const policy = response?.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/^default-src 'none';/);
    expect(policy).toContain(`script-src 'none' 'sha256-${hash}'`);
  });
});

describe("cookies", () => {
  /** An authorization request as an app's browser sends it, not following the engine's redirect. */
  const authorize = (base: string, target: TestApp, headers: Record<string, string> = {}) =>
    fetch(
      `${base}/auth/oidc/authorize?${new URLSearchParams({
        client_id: target.clientId,
        redirect_uri: target.redirectUri,
        response_type: "code",
        scope: "openid",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
      }).toString()}`,
      { redirect: "manual", headers },
    );

  const expectSecureEngineCookies = (response: Response) => {
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      for (const attribute of [/; secure/i, /; httponly/i, /; samesite=lax/i])
        expect(cookie).toMatch(attribute);
    }
  };

  /** What a `__Host-` cookie needs, and the rest every cookie of Vrata has. */
  const expectHostOnly = (cookie: string) => {
    for (const attribute of [/; path=\/(;|$)/i, /; secure/i, /; httponly/i, /; samesite=lax/i])
      expect(cookie).toMatch(attribute);
    expect(cookie).not.toMatch(/; domain=/i);
  };

  it("keep the single sign-on session in a __Host- cookie once the person is back at the app", async () => {
    const driver = await start();
    await signInWithPassword(driver, "host-only", "a long passphrase");
    await chooseIdentity(driver);
    // The engine starts the session where it picks the authorization request up again.
    const setCookies = (await wayBack(driver)).flatMap((response) => response.headers.getSetCookie());
    const session = setCookies.filter((cookie) => /^__Host-vrata\.session(\.sig)?=/.test(cookie));
    expect(session).toHaveLength(2);
    for (const cookie of session) expectHostOnly(cookie);
  });

  it("are Secure behind a TLS-terminating proxy too, which reaches Vrata over plain HTTP", async () => {
    const proxied = await startTestServer({ args: ["--behind-proxy", "--issuer", "https://vrata.example"] });
    try {
      const target = await registerTestApp(proxied.db);
      expectSecureEngineCookies(await authorize(proxied.url, target, { "x-forwarded-proto": "https" }));
    } finally {
      await proxied.dispose();
    }
  });

  it("are HttpOnly, Secure and SameSite, the flow's session one with the __Host- prefix", async () => {
    const driver = await start();
    await driver.step("passwordStart", { emailOrUsername: "cookie-monster" });
    const response = await driver.raw("passwordComplete", { password: "a long passphrase" });
    const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("__Host-session-"));
    expect(session).toBeDefined();
    expectHostOnly(session ?? "");

    // The engine's own cookies, set by the authorization request, follow the same rules.
    expectSecureEngineCookies(await authorize(server.issuer, app));
  });
});
