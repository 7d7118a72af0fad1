import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxFlowAttempts } from "../src/common/limits.ts";
import { newRecoveryCodes } from "../src/server/accounts/recovery-codes.ts";
import { loadInstanceKey } from "../src/server/secrets/instance-key.ts";
import { deriveInstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { credentialsOf } from "../src/server/store/accounts.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { accountOfUsername, addAuthenticatorApp } from "./support/second-factors.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, mailArgs, startSmtpReceiver } from "./support/smtp.ts";
import { attempts, sentTogether } from "./support/together.ts";
import { totpCode } from "./support/totp-codes.ts";

// The codes of a sign-in, each sent several times at the same moment: an e-mailed code in its flow,
// and an authenticator app's code or a recovery code in as many flows of the same account. Each
// signs one of them in.

describe.each(storeEngines)("sign-in codes used at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({ postgresUrl: url, args: mailArgs(smtp.port) });
    app = await registerTestApp(server.db);
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  const secrets = async () =>
    deriveInstanceSecrets(
      await loadInstanceKey({
        kind: "file",
        file: path.join(server.dataDir, "secret.key"),
        createIfMissing: false,
      }),
    );

  /**
   * An account with a password, an authenticator app and recovery codes, and `attempts` flows waiting
   * for its second factor.
   */
  async function waitingForSecondFactor(username: string) {
    const first = await FlowDriver.start(server.issuer, app);
    await first.step("passwordStart", { emailOrUsername: username });
    expect((await first.step("passwordComplete", { password: `${username}'s passphrase` })).status).toBe(200);
    const accountId = await accountOfUsername(server, username);
    const secret = await addAuthenticatorApp(server, accountId);
    const recovery = newRecoveryCodes((await secrets()).recoveryCodes, accountId);
    await recovery.store(server.db, Date.now());
    // One after the other: right passwords sent at once would reach the account's ceiling of guesses.
    const flows: FlowDriver[] = [];
    for (let count = 0; count < attempts; count++) {
      const driver = await FlowDriver.start(server.issuer, app);
      await driver.step("passwordStart", { emailOrUsername: username });
      const { flow } = await driver.step("passwordComplete", { password: `${username}'s passphrase` });
      expect(flow.secondFactor?.methods).toEqual(["totp", "recoveryCode"]);
      flows.push(driver);
    }
    return { accountId, secret, recoveryCodes: recovery.codes, flows };
  }

  /** Each flow sends `body` to `step` at the same moment. */
  function allAtOnce(flows: readonly FlowDriver[], step: string, body: unknown) {
    const waiting = [...flows];
    const send = () => {
      const driver = waiting.shift();
      if (!driver) throw new Error("more requests than flows");
      return driver.raw(step, body);
    };
    return sentTogether(server.issuer, send, flows.length);
  }

  it("signs up once with an e-mailed code", async () => {
    const driver = await FlowDriver.start(server.issuer, app);
    expect((await driver.step("codeStart", { emailOrUsername: "erin@example.com" })).status).toBe(200);
    const code = codeIn(await smtp.waitFor("erin@example.com"));
    // As many as the flow has guesses: more, and those refused would fail the flow (by design: a flow
    // whose guesses are all taken fails, whether or not one of them turns out right).
    const answers = await sentTogether(
      server.issuer,
      () => driver.raw("codeComplete", { code }),
      maxFlowAttempts,
    );
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(1);
    expect(answers.filter(({ status }) => status < 300 && status !== 200)).toHaveLength(0);
    expect((await driver.get()).completed).toEqual(["signup"]);
  });

  it("takes an authenticator app's code once", async () => {
    const { secret, flows } = await waitingForSecondFactor("tamara");
    // The code of the next time step: the one of now confirmed the app.
    const answers = await allAtOnce(flows, "totpComplete", { code: totpCode(secret, 1) });
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(1);
    expect(answers.filter(({ status }) => status < 300 && status !== 200)).toHaveLength(0);
  });

  it("takes a recovery code once", async () => {
    const { accountId, recoveryCodes, flows } = await waitingForSecondFactor("rok");
    const answers = await allAtOnce(flows, "recoveryCodeComplete", { code: recoveryCodes[0] });
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(1);
    expect(answers.filter(({ status }) => status < 300 && status !== 200)).toHaveLength(0);
    const [stored] = await credentialsOf(server.db, accountId, "recoveryCodes");
    expect((JSON.parse(stored?.data ?? "{}") as { unused: string[] }).unused).toHaveLength(
      recoveryCodes.length - 1,
    );
  });
});
