import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxFlowAttempts } from "../src/common/limits.ts";
import { routes } from "../src/common/routes.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { LogLines } from "./support/log-lines.ts";
import { organizationWithApp, signInToApp, type ConsoleUser } from "./support/organization-admin.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";

// What an operator reads in the log (README "Log"): one line per sign-in, sign-up, failed guess, code
// sent, token issued and block, naming what it is about by IDs only; request lines with the client's
// address; health checks and scrapes only at debug.

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let server: TestServer;
const log = new LogLines();
let owner: ConsoleUser;
let app: TestApp;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({
    args: [...["--log-level", "debug"], ...mailArgs(smtp.port)],
    logStream: log,
  });
  owner = await consoleSignUp(server.issuer, "logged-owner");
  ({ app } = await organizationWithApp(owner, "Logged"));
});
afterAll(async () => {
  await server.dispose();
  await smtp.close();
});

/** Every text a log line holds, nested ones included. */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(textsOf);
  return [];
}

/** What every line of a flow's event says about the flow. */
const ofFlow = (driver: FlowDriver) => ({
  flowId: driver.flowId,
  organizationId: app.organizationId,
  clientId: app.clientId,
});

describe("operator events", () => {
  it("tell of a code sent, a wrong code, a sign-up and the tokens, without the address, code or tokens", async () => {
    const address = "Logged.Person@Example.com";
    const mark = log.mark();
    const driver = await FlowDriver.start(server.issuer, app, {
      scope: "openid offline_access",
      prompt: "consent",
    });
    await driver.step("codeStart", { emailOrUsername: address });
    const code = codeIn(await smtp.waitFor(address));
    const wrong = code === "000000" ? "111111" : "000000";
    expect((await driver.step("codeComplete", { code: wrong })).status).toBe(400);
    expect((await driver.step("codeComplete", { code })).status).toBe(200);
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id } });
    await driver.step("redirect");
    const tokens = await driver.exchange(await driver.returnToApp());

    expect(log.events("codeSent", mark)).toEqual([
      expect.objectContaining({ level: 30, msg: "sign-in code sent", ...ofFlow(driver), purpose: "signup" }),
    ]);
    expect(log.events("guessFailed", mark)).toEqual([
      expect.objectContaining({ ...ofFlow(driver), kind: "code" }),
    ]);
    const [signUp] = log.events("signUp", mark);
    expect(signUp).toMatchObject({ msg: "signed up", ...ofFlow(driver), method: "code" });
    expect(signUp?.accountId).toMatch(/^\w+/);
    expect(log.events("tokenIssued", mark)).toEqual([
      expect.objectContaining({
        clientId: app.clientId,
        grant: "authorization_code",
        subject: tokens.claims()?.sub,
      }),
    ]);

    // Only text is searched: the code's six digits may well occur in a time or a duration.
    const written = log.since(mark).flatMap(textsOf).join("\n");
    expect(tokens.refresh_token).toBeDefined();
    for (const secret of [address, address.toLowerCase(), code, tokens.access_token, tokens.refresh_token])
      expect(written).not.toContain(secret);
  });

  it("tell of a sign-in, each wrong password, and a flow that used up its guesses", async () => {
    await signInToApp(server.issuer, app, "logged-guesser");
    const mark = log.mark();
    const { driver } = await signInToApp(server.issuer, app, "logged-guesser");
    const [signIn] = log.events("signIn", mark);
    expect(signIn).toMatchObject({ ...ofFlow(driver), method: "password" });

    const failing = await FlowDriver.start(server.issuer, app, { scope: "openid profile" });
    await failing.step("passwordStart", { emailOrUsername: "logged-guesser" });
    for (let guess = 0; guess < maxFlowAttempts; guess++)
      await failing.step("passwordComplete", { password: `wrong passphrase ${guess}` });
    const guesses = log.events("guessFailed", mark);
    expect(guesses).toHaveLength(maxFlowAttempts);
    expect(guesses[0]).toMatchObject({ ...ofFlow(failing), kind: "password", accountId: signIn?.accountId });
    expect(log.events("signInFailed", mark)).toEqual([
      expect.objectContaining({ ...ofFlow(failing), method: "password", reason: "guesses" }),
    ]);
    expect(log.text.slice(mark).join("\n")).not.toContain("logged-guesser");
  });

  it("tell of a block and of its lifting, with the admin's account", async () => {
    const { tokens, identityId } = await signInToApp(server.issuer, app, "logged-blocked");
    const scopedId = tokens.claims()?.sub ?? "";
    const path = `/api/o/block/${app.organizationId}/${scopedId}`;
    const mark = log.mark();
    const blocked = await postJson(owner.api, path, { scope: "identity", adminNote: "", userNote: "" });
    expect(blocked.status).toBe(200);
    expect((await postJson(owner.api, path, { unblock: true })).status).toBe(200);

    const [block] = log.events("identityBlocked", mark);
    expect(block).toMatchObject({ organizationId: app.organizationId, identityId, scope: "identity" });
    expect(block?.byAccountId).toMatch(/^\w+/);
    expect(log.events("identityUnblocked", mark)).toEqual([
      expect.objectContaining({
        organizationId: app.organizationId,
        identityId,
        byAccountId: block?.byAccountId,
      }),
    ]);
  });
});

describe("request lines", () => {
  it("name the client's address and path, without the query", async () => {
    const mark = log.mark();
    const answer = await fetch(`${server.issuer}/.well-known/openid-configuration?code=visible`);
    expect(answer.status).toBe(200);
    const completed = log.since(mark).find((record) => record.msg === "incoming request");
    expect(completed).toMatchObject({
      level: 30,
      req: { method: "GET", path: "/.well-known/openid-configuration" },
    });
    expect((completed?.req as { address: string }).address).toMatch(
      /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/,
    );
    expect(log.text.slice(mark).join("\n")).not.toContain("visible");
  });

  it("of health checks are at debug, the others at info", async () => {
    const mark = log.mark();
    expect((await fetch(server.issuer + routes.HealthLive.path)).status).toBe(200);
    expect((await fetch(server.issuer + routes.HealthReady.path)).status).toBe(200);
    const health = log
      .since(mark)
      .filter((record) => (record.req as { path?: string } | undefined)?.path?.startsWith("/health/"));
    expect(health).toHaveLength(2);
    const completions = log.since(mark).filter((record) => record.msg === "request completed");
    expect(completions).toHaveLength(2);
    for (const line of [...health, ...completions]) expect(line.level).toBe(20);
  });
});
