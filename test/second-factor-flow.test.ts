import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignInPolicy } from "../src/common/api/second-factor.ts";
import type { OrganizationDocument } from "../src/server/organizations/organizations.ts";
import type { Database } from "../src/server/store/database.ts";
import { activitiesOfOrganization } from "../src/server/store/activities.ts";
import { findDocument, replaceDocument } from "../src/server/store/documents.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { SoftwareAuthenticator } from "./support/authenticator.ts";
import { CookieJar } from "./support/browser.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { totpCode } from "./support/totp-codes.ts";

// The second factor in the sign-in flow: asked after the first when the account set one up, the
// organization's policy or the app asks for it; set up in the flow when the account has none; each
// guess counted before it is compared. Codes come from oathtool, not from Vrata's own TOTP code.

/** What the organization's apps ask of people signing in, stored as the console stores it. */
async function setSignInPolicy(db: Database, organizationId: string, signInPolicy: SignInPolicy) {
  const stored = await findDocument<OrganizationDocument>(db, "organizations", organizationId);
  if (!stored) throw new Error("no such organization");
  await replaceDocument(
    db,
    "organizations",
    organizationId,
    stored.version,
    {
      ...stored.document,
      signInPolicy,
    },
    Date.now(),
  );
}

describe.each(storeEngines)("second factors in the flow on $name", ({ url }) => {
  let server: TestServer;
  let open: TestApp;
  let strict: TestApp;
  let vault: TestApp;

  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    open = await registerTestApp(server.db, "Notes");
    strict = await registerTestApp(server.db, "Ledger");
    await setSignInPolicy(server.db, strict.organizationId, "secondFactor");
    vault = await registerTestApp(server.db, "Vault");
    await setSignInPolicy(server.db, vault.organizationId, "passkey");
  });
  afterAll(() => server.dispose());

  const start = (app: TestApp, parameters: Record<string, string> = {}, jar = new CookieJar()) =>
    FlowDriver.start(server.issuer, app, parameters, undefined, jar);

  async function password(driver: FlowDriver, username: string) {
    await driver.step("passwordStart", { emailOrUsername: username });
    const answer = await driver.step("passwordComplete", { password: `${username}'s passphrase` });
    expect(answer.status).toBe(200);
    return answer.flow;
  }

  /** Chooses the first identity and returns the app's tokens. */
  async function finish(driver: FlowDriver) {
    const id = (await driver.identities())[0]?.id ?? "";
    expect((await driver.step("chooseIdentity", { identity: { id } })).status).toBe(200);
    expect((await driver.step("redirect")).status).toBe(200);
    return driver.exchange(await driver.returnToApp());
  }

  /** Signs up with a password at the strict organization's app and sets up an authenticator app. */
  async function signUpWithTotp(username: string) {
    const driver = await start(strict);
    const flow = await password(driver, username);
    expect(flow.secondFactor).toEqual({
      need: "secondFactor",
      reason: "organization",
      methods: [],
      setUp: ["totp", "passkey"],
    });
    const started = await driver.step("totpSetUpStart");
    const setUp = started.flow.totpSetUp;
    if (!setUp) throw new Error("no set-up");
    expect(setUp.uri).toContain(`secret=${setUp.secret}`);
    const code = totpCode(setUp.secret);
    const done = await driver.step("totpSetUpComplete", { setUpToken: setUp.setUpToken, code });
    expect(done.status).toBe(200);
    expect(done.flow.secondFactor).toBeUndefined();
    expect(done.flow.recoveryCodes).toHaveLength(10);
    const identityId = (await driver.identities())[0]?.id ?? "";
    return {
      driver,
      identityId,
      secret: setUp.secret,
      firstCode: code,
      recoveryCodes: done.flow.recoveryCodes ?? [],
    };
  }

  it("turns away a password alone where the organization asks for two factors, and sets one up in the flow", async () => {
    const driver = await start(strict);
    const flow = await password(driver, "mira");
    expect(flow.completed).toEqual(["signup"]);
    expect(flow.secondFactor?.setUp).toEqual(["totp", "passkey"]);
    expect((await driver.get()).secondFactor).toEqual(flow.secondFactor);
    // The account's identities stay hidden until the second factor.
    const listed = await driver.fetch(`${server.issuer}/api/i?flow=${driver.flowId}`);
    expect(listed.status).toBe(401);
    expect((await driver.raw("redirect", {})).status).toBe(400);
    // A wrong first code costs a guess and says so.
    const setUp = (await driver.step("totpSetUpStart")).flow.totpSetUp;
    if (!setUp) throw new Error("no set-up");
    const wrong = await driver.step("totpSetUpComplete", { setUpToken: setUp.setUpToken, code: "12345" });
    expect(wrong).toMatchObject({ status: 400, flow: { error: "invalidCode" } });
    const right = await driver.step("totpSetUpComplete", {
      setUpToken: setUp.setUpToken,
      code: totpCode(setUp.secret),
    });
    expect(right.status).toBe(200);
    expect(new Set(right.flow.recoveryCodes).size).toBe(10);
    expect(right.flow.providers).toEqual(["password", "totp"]);

    const tokens = await finish(driver);
    const claims = tokens.claims();
    expect(claims?.amr).toEqual(expect.arrayContaining(["pwd", "otp", "mfa"]));
    expect(claims?.acr).toBe("aal2");
  });

  it("asks for the authenticator app at every sign-in, accepting each code once", async () => {
    const { secret, firstCode, identityId } = await signUpWithTotp("tomo");
    // Even where the organization asks for nothing more: the person set one up.
    const driver = await start(open);
    const flow = await password(driver, "tomo");
    expect(flow.secondFactor).toEqual({
      need: "secondFactor",
      reason: "account",
      methods: ["totp", "recoveryCode"],
    });
    // No identity can be chosen before the second factor.
    const choose = await driver.raw("chooseIdentity", { identity: { id: identityId } });
    expect(choose.status).toBe(400);
    const again = await driver.step("totpComplete", { code: firstCode });
    expect(again).toMatchObject({ status: 400, flow: { error: "invalidCode" } });
    const before = Math.floor(Date.now() / 1000);
    const next = await driver.step("totpComplete", { code: totpCode(secret, 1) });
    expect(next.status).toBe(200);
    expect(next.flow.secondFactor).toBeUndefined();
    const claims = (await finish(driver)).claims();
    expect(claims?.amr).toEqual(expect.arrayContaining(["pwd", "otp", "mfa"]));
    expect(claims?.acr).toBe("aal2");
    expect(claims?.auth_time).toBeGreaterThanOrEqual(before);
  });

  it("takes a recovery code once, even when it is sent twice at the same moment", async () => {
    const { recoveryCodes } = await signUpWithTotp("ines");
    const [first] = recoveryCodes;
    const browsers = await Promise.all([start(open), start(open)]);
    for (const driver of browsers) await password(driver, "ines");
    const answers = await Promise.all(
      browsers.map((driver) => driver.step("recoveryCodeComplete", { code: first?.toUpperCase() })),
    );
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 400]);
    expect(answers.find(({ status }) => status === 400)?.flow.error).toBe("invalidRecoveryCode");
    const used = answers.find(({ status }) => status === 200);
    expect(used?.flow.providers).toEqual(["password", "recoveryCode"]);

    // The organization's activity tells a sign-in by a recovery code from the others.
    const winner = browsers.find((_, index) => answers[index] === used);
    if (!winner) throw new Error("no browser signed in");
    await finish(winner);
    const [entry] = await activitiesOfOrganization(server.db, open.organizationId, 1, {
      category: "signIns",
    });
    expect(entry?.type).toBe("signIn");
    expect(JSON.parse(entry?.document ?? "{}")).toMatchObject({ providers: ["password", "recoveryCode"] });
  });

  it("lets simultaneous wrong codes from many browsers pass no further than the account's ceiling", async () => {
    const { secret } = await signUpWithTotp("vlad");
    const browsers = await Promise.all(Array.from({ length: 30 }, () => start(open)));
    for (const driver of browsers) await password(driver, "vlad");
    const wrong = totpCode(secret, 5);
    const answers = await Promise.all(browsers.map((driver) => driver.step("totpComplete", { code: wrong })));
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    // The right code is refused too now: the account's ceiling stands until it regains room.
    const right = await browsers[0]?.step("totpComplete", { code: totpCode(secret) });
    expect(right?.status).toBe(429);
  });

  it("fails the flow once its guesses are used up, even guessed at once", async () => {
    const driver = await start(strict);
    await password(driver, "ola");
    const setUp = (await driver.step("totpSetUpStart")).flow.totpSetUp;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        driver.raw("totpSetUpComplete", { setUpToken: setUp?.setUpToken, code: "000000" }),
      ),
    );
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { error?: string }[];
    const compared = answers.filter(
      ({ status }, index) => status === 200 || bodies[index]?.error === "invalidCode",
    );
    expect(compared.length).toBeGreaterThan(0);
    expect(compared.length).toBeLessThanOrEqual(10);
    const flow = await driver.get();
    expect(flow.completed).toEqual(["failed"]);
    expect(flow.secondFactor).toBeUndefined();
    // The first factor alone opens nothing of the account's.
    expect((await driver.fetch(`${server.issuer}/api/i?flow=${driver.flowId}`)).status).toBe(401);
  });

  it("lets a person decline instead of the second factor, which then still stands in the way", async () => {
    const { identityId } = await signUpWithTotp("lina");
    const driver = await start(open);
    await password(driver, "lina");
    const declined = await driver.step("decline");
    expect(declined.status).toBe(200);
    expect(declined.flow.completed).toEqual(["signin", "declined"]);
    expect(declined.flow.secondFactor).toBeUndefined();
    expect((await driver.fetch(`${server.issuer}/api/i?flow=${driver.flowId}`)).status).toBe(401);
    expect((await driver.raw("chooseIdentity", { identity: { id: identityId } })).status).toBe(400);
    expect((await driver.step("redirect")).status).toBe(200);
    const answer = await driver.returnToApp();
    expect(answer.searchParams.get("error")).toBe("access_denied");
  });

  it("refuses second-factor steps the flow does not wait for, and bad input, with 4xx", async () => {
    const driver = await start(open);
    expect((await driver.raw("totpComplete", { code: "123456" })).status).toBe(400);
    await password(driver, "pia");
    expect((await driver.raw("totpComplete", { code: "123456" })).status).toBe(400);
    expect((await driver.raw("recoveryCodeComplete", { code: "abcde-fghij" })).status).toBe(400);
    expect((await driver.raw("totpSetUpStart", {})).status).toBe(400);

    const pending = await start(strict);
    await password(pending, "pia");
    for (const [name, body] of [
      ["totpComplete", {}],
      ["totpComplete", { code: 123456 }],
      ["totpComplete", { code: "1".repeat(100_000) }],
      ["totpComplete", { code: "123456", extra: true }],
      ["recoveryCodeComplete", { code: "x".repeat(5000) }],
      ["totpSetUpComplete", { setUpToken: "x".repeat(3000), code: "123456" }],
      ["totpSetUpComplete", { setUpToken: "not sealed", code: "123456" }],
      ["totpSetUpStart", { what: 1 }],
    ] as const) {
      const response = await pending.raw(name, body);
      expect(response.status, `${name} ${JSON.stringify(body).slice(0, 40)}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    const unknown = await pending.fetch(`${server.issuer}/api/auth/totpComplete/${"x".repeat(43)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "123456" }),
    });
    expect(unknown.status).toBe(404);
  });

  /** The passkey ceremony's options a step answered with. */
  function passkeyOptions<K extends "getOptions" | "createOptions">(
    answer: { flow: { passkey?: unknown } },
    kind: K,
  ) {
    const passkey = answer.flow.passkey as Record<K, unknown> | undefined;
    if (!passkey?.[kind]) throw new Error(`no ${kind}`);
    return passkey[kind] as Parameters<
      SoftwareAuthenticator[K extends "getOptions" ? "authenticate" : "register"]
    >[0];
  }

  it("asks for a passkey where the organization requires one, and sets it up for the signed-in account", async () => {
    const authenticator = new SoftwareAuthenticator(server.issuer);
    const driver = await start(vault);
    const flow = await password(driver, "kai");
    expect(flow.secondFactor).toEqual({
      need: "passkey",
      reason: "organization",
      methods: [],
      setUp: ["passkey"],
    });
    expect((await driver.raw("totpSetUpStart", {})).status).toBe(400);
    const options = passkeyOptions(await driver.step("passkeyCreateStart", { name: "" }), "createOptions");
    expect(options.user.name).toBe("kai");
    const created = await driver.step("passkeyCreateComplete", { response: authenticator.register(options) });
    expect(created.status).toBe(200);
    expect(created.flow.completed).toEqual(["signup"]);
    expect(created.flow.recoveryCodes).toHaveLength(10);
    expect(created.flow.secondFactor).toBeUndefined();
    const claims = (await finish(driver)).claims();
    expect(claims?.acr).toBe("phr");
    expect(claims?.amr).toEqual(expect.arrayContaining(["pwd", "hwk", "user", "mfa"]));

    // Next time the account's passkey is asked for; another account's passkey is a wrong guess.
    const stranger = new SoftwareAuthenticator(server.issuer);
    const other = await start(open);
    const strangerOptions = passkeyOptions(
      await other.step("passkeyCreateStart", { name: "stranger" }),
      "createOptions",
    );
    expect(
      (await other.step("passkeyCreateComplete", { response: stranger.register(strangerOptions) })).status,
    ).toBe(200);

    const again = await start(vault);
    expect((await password(again, "kai")).secondFactor).toEqual({
      need: "passkey",
      reason: "organization",
      methods: ["passkey"],
    });
    const getOptions = passkeyOptions(await again.step("passkeyGetStart"), "getOptions");
    expect(getOptions.allowCredentials?.map(({ id }) => id)).toEqual([authenticator.id]);
    const wrong = await again.step("passkeyGetComplete", { response: stranger.authenticate(getOptions) });
    expect(wrong).toMatchObject({ status: 400, flow: { error: "passkeyFailed" } });
    const retry = passkeyOptions(await again.step("passkeyGetStart"), "getOptions");
    const right = await again.step("passkeyGetComplete", { response: authenticator.authenticate(retry) });
    expect(right.status).toBe(200);
    expect(right.flow.providers).toEqual(["password", "passkey"]);
    expect((await finish(again)).claims()?.acr).toBe("phr");
  });

  it("steps a signed-in person up to the level the app asks for, without their password again", async () => {
    const jar = new CookieJar();
    const first = await start(open, {}, jar);
    await password(first, "noor");
    expect((await finish(first)).claims()?.acr).toBe("aal1");

    // Without a second factor, an app's request has nobody set one up (a password alone would then
    // add one): the app is answered with the level reached.
    const asIs = await FlowDriver.startSignedIn(server.issuer, open, { acr_values: "aal2" }, undefined, jar);
    expect((await asIs.driver.exchange(asIs.callback)).claims()?.acr).toBe("aal1");

    // A passkey set up elsewhere (where the organization requires one) is what the app's request asks for.
    const authenticator = new SoftwareAuthenticator(server.issuer);
    const elsewhere = await start(vault);
    await password(elsewhere, "noor");
    const options = passkeyOptions(await elsewhere.step("passkeyCreateStart", { name: "" }), "createOptions");
    expect(
      (await elsewhere.step("passkeyCreateComplete", { response: authenticator.register(options) })).status,
    ).toBe(200);

    const before = Math.floor(Date.now() / 1000);
    const driver = await start(open, { acr_values: "aal2" }, jar);
    const flow = await driver.get();
    expect(flow.completed).toEqual(["signin"]);
    expect(flow.secondFactor).toEqual({
      need: "secondFactor",
      reason: "app",
      methods: ["passkey", "recoveryCode"],
    });
    const getOptions = passkeyOptions(await driver.step("passkeyGetStart"), "getOptions");
    const done = await driver.step("passkeyGetComplete", {
      response: authenticator.authenticate(getOptions),
    });
    expect(done.status).toBe(200);
    const claims = (await finish(driver)).claims();
    expect(claims?.amr).toEqual(expect.arrayContaining(["pwd", "hwk", "user", "mfa"]));
    expect(claims?.acr).toBe("phr");
    expect(claims?.auth_time).toBeGreaterThanOrEqual(before);

    // The session now has both factors: the app's next request is answered at once.
    const { driver: signedIn, callback } = await FlowDriver.startSignedIn(
      server.issuer,
      open,
      { acr_values: "aal2" },
      undefined,
      jar,
    );
    expect((await signedIn.exchange(callback)).claims()?.acr).toBe("phr");
  });

  it("steps a signed-in person up where the organization asks for two factors", async () => {
    const { secret } = await signUpWithTotp("eva");
    const jar = new CookieJar();
    // Signed in with both factors: the strict organization's app continues without asking again.
    const first = await start(open, {}, jar);
    await password(first, "eva");
    expect((await first.step("totpComplete", { code: totpCode(secret, 1) })).status).toBe(200);
    await finish(first);
    const next = await start(strict, {}, jar);
    const flow = await next.get();
    expect(flow.completed).toEqual(["signin"]);
    expect(flow.secondFactor).toBeUndefined();

    // A one-factor session is asked for the second factor at the strict organization's app.
    const oneFactor = new CookieJar();
    const plain = await start(open, {}, oneFactor);
    await password(plain, "ana");
    await finish(plain);
    const stepUp = await start(strict, {}, oneFactor);
    expect((await stepUp.get()).secondFactor).toMatchObject({
      reason: "organization",
      setUp: ["totp", "passkey"],
    });
  });

  it("publishes the levels it signs in at", async () => {
    const discovery = (await (await fetch(`${server.issuer}/.well-known/openid-configuration`)).json()) as {
      acr_values_supported?: string[];
    };
    expect(discovery.acr_values_supported).toEqual(["aal1", "aal2", "phr"]);
  });
});
