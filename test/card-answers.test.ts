import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { codeResendCooldownMs } from "../src/common/limits.ts";
import { createAccount } from "../src/server/accounts/accounts.ts";
import { normalizeIdentifier, type Identifier } from "../src/server/accounts/normalize.ts";
import { hashPassword } from "../src/server/accounts/passwords.ts";
import { createIdentity } from "../src/server/identities/identities.ts";
import { newId } from "../src/server/ids.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { LogLines } from "./support/log-lines.ts";
import { consoleApp, finishConsoleSignIn } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";

// What the sign-in card is answered where a newcomer meets it: a flow gone while its page was open,
// a wrong password for an account with an e-mail address, the wait before another code, and asking
// for a code with a username.

const identifier = (typed: string): Identifier => {
  const normalized = normalizeIdentifier(typed);
  if (typeof normalized === "string") throw new Error(`not an identifier: ${typed}`);
  return normalized;
};

describe.each(storeEngines)("the card's answers on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let app: TestApp;
  const log = new LogLines();

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: [...mailArgs(smtp.port), ...["--log-level", "debug"]],
      logStream: log,
    });
    app = await registerTestApp(server.db, "Notes");
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  /** An account with a username, an e-mail address and a password, as one may have from an import. */
  async function accountWithEmail(username: string, email: string, password: string) {
    const accountId = newId();
    await createAccount(server.db, accountId, {
      username: identifier(username),
      email: identifier(email),
      passwordHash: await hashPassword(password),
    });
    await createIdentity(server.db, accountId, { username });
  }

  it("answers a step of a flow that expired while its page was open as a flow that is not there", async () => {
    const driver = await FlowDriver.start(server.issuer, app);
    expect((await driver.step("passwordStart", { emailOrUsername: "quinn" })).status).toBe(200);
    // The flow and the authorization request it belongs to end together.
    await server.db.updateTable("flows").set({ expires_at: 1 }).where("id", "=", driver.flowId).execute();
    await server.db
      .updateTable("oidc_models")
      .set({ expires_at: 1 })
      .where("model", "=", "Interaction")
      .execute();
    for (const [step, body] of [
      ["passwordComplete", { password: "quinn's passphrase" }],
      ["codeStart", { emailOrUsername: "quinn@example.com" }],
      ["restartAuth", {}],
    ] as const) {
      const response = await driver.raw(step, body);
      expect(response.status, step).toBe(404);
      expect(await response.json()).toMatchObject({ error: "notFound" });
    }
  });

  it("says a username's password was wrong when it sends a code instead, and signs in by the code alone", async () => {
    await accountWithEmail("rosa", "rosa@example.com", "rosa's passphrase");
    const driver = await FlowDriver.start(server.issuer, await consoleApp(server.url));
    await driver.step("passwordStart", { emailOrUsername: "Rosa" });
    const wrong = await driver.step("passwordComplete", { password: "not rosa's passphrase" });
    expect(wrong).toMatchObject({
      status: 200,
      flow: { completed: [], providers: ["password", "code"], codeAfterPassword: "wrong", codesSent: 1 },
    });
    expect(wrong.flow.resendInSeconds).toBeGreaterThan(0);
    expect(wrong.flow.resendInSeconds).toBeLessThanOrEqual(codeResendCooldownMs / 1000);

    const code = codeIn(await smtp.waitFor("rosa@example.com"));
    const signedIn = await driver.step("codeComplete", { code });
    expect(signedIn.flow).toMatchObject({ completed: ["signin"], providers: ["code"] });
    const { api } = await finishConsoleSignIn(server.url, driver);
    const response = await api("/api/activity");
    const [signIn] = activityPageSchema.parse(await response.json()).items;
    expect(signIn).toMatchObject({ type: "signIn", providers: ["code"] });
  });

  it("answers a wrong password for an e-mail address as it answers a new address's sign-up", async () => {
    await accountWithEmail("sara", "sara@example.com", "sara's passphrase");
    const answerTo = async (email: string) => {
      const driver = await FlowDriver.start(server.issuer, app);
      await driver.step("passwordStart", { emailOrUsername: email });
      const { status, flow } = await driver.step("passwordComplete", { password: "some passphrase" });
      await smtp.waitFor(email);
      const { codeAfterPassword, providers, error } = flow;
      return { status, keys: Object.keys(flow).sort(), codeAfterPassword, providers, error };
    };
    const existing = await answerTo("sara@example.com");
    expect(existing).toMatchObject({ status: 200, codeAfterPassword: "undisclosed" });
    expect(await answerTo("nobody-yet@example.com")).toEqual(existing);
  });

  it("answers a code asked for a username the same, whether it has an account without an address or none", async () => {
    const withoutEmail = await FlowDriver.start(server.issuer, app);
    await withoutEmail.step("passwordStart", { emailOrUsername: "tomo" });
    expect((await withoutEmail.step("passwordComplete", { password: "tomo's passphrase" })).status).toBe(200);

    const answerTo = async (username: string) => {
      const driver = await FlowDriver.start(server.issuer, app);
      const { status, flow } = await driver.step("codeStart", { emailOrUsername: username });
      return { status, error: flow.error, keys: Object.keys(flow).sort() };
    };
    const existing = await answerTo("tomo");
    expect(existing).toMatchObject({ status: 400, error: "noEmails" });
    expect(await answerTo("nobody-here")).toEqual(existing);
  });

  it("says how long until another code may be sent, and refuses one sooner", async () => {
    const driver = await FlowDriver.start(server.issuer, app);
    const sent = await driver.step("codeStart", { emailOrUsername: "uma@example.com" });
    expect(sent.flow.resendInSeconds).toBeGreaterThan(0);
    expect(sent.flow.resendInSeconds).toBeLessThanOrEqual(codeResendCooldownMs / 1000);
    expect((await driver.get()).resendInSeconds).toBeGreaterThan(0);
    const tooSoon = await driver.step("codeStart", { emailOrUsername: "uma@example.com" });
    expect(tooSoon).toMatchObject({ status: 400, flow: { error: "codeRecentlySent", codesSent: 1 } });
  });

  it("never writes a code to the log when an SMTP server takes the e-mail", async () => {
    const mark = log.mark();
    const driver = await FlowDriver.start(server.issuer, app);
    await driver.step("codeStart", { emailOrUsername: "vera@example.com" });
    const code = codeIn(await smtp.waitFor("vera@example.com"));
    await expect.poll(() => log.events("codeSent", mark).length).toBe(1);
    expect(log.text.slice(mark).filter((line) => line.includes(code))).toEqual([]);
  });
});
