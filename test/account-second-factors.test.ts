import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountSchema, type Account } from "../src/common/api/account.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { totpSetUpSchema, type TotpSetUp } from "../src/common/api/second-factor.ts";
import { rateLimits, recoveryCodeCount, totpSetUpLifetimeMs } from "../src/common/limits.ts";
import { secondFactorGuessBucket } from "../src/server/flow/throttle.ts";
import { useRecoveryCode } from "../src/server/accounts/recovery-codes.ts";
import { openTotpSetUp, startTotpSetUp, verifyTotp } from "../src/server/accounts/totp.ts";
import { loadInstanceKey } from "../src/server/secrets/instance-key.ts";
import { deriveInstanceSecrets, type InstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { findAccountIdByCredential } from "../src/server/store/accounts.ts";
import { bucketLevel } from "../src/server/store/throttle.ts";
import { account, call } from "./support/account.ts";
import { SoftwareAuthenticator } from "./support/authenticator.ts";
import { consoleApp, consoleSignUp, finishConsoleSignIn, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// The account page's second factors: an authenticator app set up with codes an independent TOTP
// implementation (oathtool) computes, and recovery codes made, made anew and removed with it.

const run = promisify(execFile);

/** The authenticator app's code for now, or for `at` (oathtool's --now, e.g. "2020-01-01 00:00 UTC"). */
async function oathCode(secret: string, at?: string): Promise<string> {
  const { stdout } = await run("oathtool", ["--totp", "-b", ...(at ? ["--now", at] : []), secret]);
  return stdout.trim();
}

/** The codes oathtool accepts around now: the step before, this one and the next. */
async function codesAroundNow(secret: string): Promise<string[]> {
  const before = new Date(Date.now() - 30_000).toISOString().replace("T", " ").replace(/\..*/, " UTC");
  const { stdout } = await run("oathtool", ["--totp", "-b", "-w", "2", "--now", before, secret]);
  return stdout.trim().split("\n");
}

/** A six-digit code that is none of the app's codes around now. */
async function wrongCode(secret: string): Promise<string> {
  const right = await codesAroundNow(secret);
  for (let guess = 0; ; guess++) {
    const code = String(123456 + guess * 7919).padStart(6, "0");
    if (!right.includes(code)) return code;
  }
}

const accountCall = (api: ConsoleApi, route: string, body: unknown = {}) =>
  call(api, `/api/account/${route}`, body);

async function startSetUp(api: ConsoleApi): Promise<TotpSetUp> {
  const started = await accountCall(api, "totpSetUpStart");
  expect(started.status).toBe(200);
  return totpSetUpSchema.parse(started.json);
}

/** Sets up an authenticator app with oathtool's code; the set-up and the completion's answer. */
async function setUpTotp(api: ConsoleApi) {
  const setUp = await startSetUp(api);
  const done = await accountCall(api, "totpSetUpComplete", {
    setUpToken: setUp.setUpToken,
    code: await oathCode(setUp.secret),
  });
  expect(done.status).toBe(200);
  return { setUp, done };
}

const totpOf = (data: Account) => data.credentials.find(({ provider }) => provider === "totp");

describe.each(storeEngines)("second factors on the account page on $name", ({ url }) => {
  let server: TestServer;
  let secrets: InstanceSecrets;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    secrets = deriveInstanceSecrets(
      await loadInstanceKey({
        kind: "file",
        file: path.join(server.dataDir, "secret.key"),
        createIfMissing: false,
      }),
    );
  });
  afterAll(() => server.dispose());

  async function person() {
    const username = `second${++people}`;
    const signedUp = await consoleSignUp(server.url, username);
    const accountId = (await findAccountIdByCredential(server.db, "username", username)) ?? "";
    return { ...signedUp, username, accountId };
  }

  async function signInMethodActivity(api: ConsoleApi) {
    const response = await api("/api/activity?category=signInMethods");
    return activityPageSchema.parse(await response.json()).items;
  }

  it("sets up an authenticator app with its first code and gives recovery codes once", async () => {
    const { api, username, accountId } = await person();
    expect((await account(api)).recoveryCodesLeft).toBeUndefined();
    const setUp = await startSetUp(api);
    expect(setUp.uri).toMatch(/^otpauth:\/\/totp\//);
    const uri = new URL(setUp.uri);
    expect(uri.searchParams.get("secret")).toBe(setUp.secret);
    expect(uri.searchParams.get("issuer")).toBe("Vrata");
    expect(decodeURIComponent(uri.pathname)).toContain(username);
    expect(setUp.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);

    const done = await accountCall(api, "totpSetUpComplete", {
      setUpToken: setUp.setUpToken,
      code: await oathCode(setUp.secret),
    });
    expect(done.status).toBe(200);
    const codes = done.json.recoveryCodes as string[];
    expect(codes).toHaveLength(recoveryCodeCount);
    expect(new Set(codes).size).toBe(recoveryCodeCount);
    const data = accountSchema.parse(done.json);
    expect(data.recoveryCodesLeft).toBe(recoveryCodeCount);
    expect(totpOf(data)).toMatchObject({ name: "", removable: true });
    expect(data.credentials.map(({ provider }) => provider)).not.toContain("recoveryCodes");
    expect(await account(api)).toEqual(data);
    expect((await signInMethodActivity(api))[0]).toMatchObject({
      type: "credentialAdd",
      providers: ["totp"],
    });

    // One per account: another set-up is refused until this one is removed.
    expect(await accountCall(api, "totpSetUpStart")).toMatchObject({
      status: 409,
      json: { error: "totpExists" },
    });

    // The same code again is refused: each time step proves a sign-in once.
    expect(await verifyTotp(server.db, secrets.sealer, accountId, await oathCode(setUp.secret))).toBe(false);
  });

  it("refuses a wrong code, an old one, and a token of another account or altered", async () => {
    const { api } = await person();
    const other = await person();
    const setUp = await startSetUp(api);
    const complete = (body: unknown) => accountCall(api, "totpSetUpComplete", body);
    const refused = { status: 400, json: { error: "invalidTotpCode" } };
    expect(
      await complete({ setUpToken: setUp.setUpToken, code: await wrongCode(setUp.secret) }),
    ).toMatchObject(refused);
    const anHourAgo = new Date(Date.now() - 3600_000).toISOString().replace("T", " ").replace(/\..*/, " UTC");
    const old = await oathCode(setUp.secret, anHourAgo);
    if (!(await codesAroundNow(setUp.secret)).includes(old))
      expect(await complete({ setUpToken: setUp.setUpToken, code: old })).toMatchObject(refused);
    expect(await complete({ setUpToken: setUp.setUpToken, code: "12345" })).toMatchObject(refused);

    const code = await oathCode(setUp.secret);
    const expired = { status: 400, json: { error: "totpSetUpExpired" } };
    expect(
      await accountCall(other.api, "totpSetUpComplete", { setUpToken: setUp.setUpToken, code }),
    ).toMatchObject(expired);
    const altered = `${setUp.setUpToken.slice(0, -4)}AAAA`;
    expect(await complete({ setUpToken: altered, code })).toMatchObject(expired);
    expect(totpOf(await account(api))).toBeUndefined();
    expect(totpOf(await account(other.api))).toBeUndefined();
  });

  it("stores one authenticator app when its set-up is confirmed several times at once", async () => {
    const { api } = await person();
    const setUp = await startSetUp(api);
    const code = await oathCode(setUp.secret);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        accountCall(api, "totpSetUpComplete", { setUpToken: setUp.setUpToken, code }),
      ),
    );
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(1);
    for (const answer of answers.filter(({ status }) => status !== 200))
      expect(answer).toMatchObject({ status: 409, json: { error: "totpExists" } });
    expect(answers.filter(({ json }) => json.recoveryCodes !== undefined)).toHaveLength(1);
    const data = await account(api);
    expect(data.credentials.filter(({ provider }) => provider === "totp")).toHaveLength(1);
    expect(data.recoveryCodesLeft).toBe(recoveryCodeCount);
  });

  it("counts wrong codes sent at once against the account's limit, in the store", async () => {
    const { api, accountId } = await person();
    const setUp = await startSetUp(api);
    const wrong = await wrongCode(setUp.secret);
    const { limit } = rateLimits.secondFactorGuessesPerAccount;
    const answers = await Promise.all(
      Array.from({ length: limit + 8 }, () =>
        accountCall(api, "totpSetUpComplete", { setUpToken: setUp.setUpToken, code: wrong }),
      ),
    );
    const compared = answers.filter(({ json }) => json.error === "invalidTotpCode");
    const limited = answers.filter(({ status, json }) => status === 429 && json.error === "tooManyRequests");
    expect(compared.length).toBe(limit);
    expect(limited.length).toBe(8);
    // Even the right code waits now: the limit holds for every guess.
    const right = await accountCall(api, "totpSetUpComplete", {
      setUpToken: setUp.setUpToken,
      code: await oathCode(setUp.secret),
    });
    expect(right.status).toBe(429);
    const bucket = secondFactorGuessBucket(accountId);
    const level = await bucketLevel(server.db, { ...bucket, key: secrets.limitKeys(bucket.key) }, Date.now());
    expect(level).toBeGreaterThan(limit - 1);
    expect(level).toBeLessThanOrEqual(limit);
  });

  it("makes new recovery codes only with a second factor, and the earlier ones stop working", async () => {
    const { api, accountId } = await person();
    expect(await accountCall(api, "recoveryCodes")).toMatchObject({
      status: 409,
      json: { error: "noSecondFactor" },
    });
    const { done } = await setUpTotp(api);
    const first = done.json.recoveryCodes as string[];
    expect(await useRecoveryCode(server.db, secrets.recoveryCodes, accountId, first[0] ?? "")).toBe(true);
    expect((await account(api)).recoveryCodesLeft).toBe(recoveryCodeCount - 1);

    const made = await accountCall(api, "recoveryCodes");
    expect(made.status).toBe(200);
    const second = made.json.recoveryCodes as string[];
    expect(second).toHaveLength(recoveryCodeCount);
    expect(second.filter((code) => first.includes(code))).toEqual([]);
    expect((await account(api)).recoveryCodesLeft).toBe(recoveryCodeCount);
    expect(await useRecoveryCode(server.db, secrets.recoveryCodes, accountId, first[1] ?? "")).toBe(false);
    expect(await useRecoveryCode(server.db, secrets.recoveryCodes, accountId, second[0] ?? "")).toBe(true);
    expect((await signInMethodActivity(api))[0]).toMatchObject({
      type: "credentialUpdate",
      providers: ["recoveryCodes"],
    });
  });

  it("gives a person with a passkey recovery codes, and with the app, none new", async () => {
    const authenticator = new SoftwareAuthenticator(server.issuer);
    const driver = await FlowDriver.start(server.issuer, await consoleApp(server.issuer));
    const { flow } = await driver.step("passkeyCreateStart", { name: "Passkey Person" });
    if (!flow.passkey || !("createOptions" in flow.passkey)) throw new Error("no creation options");
    await driver.step("passkeyCreateComplete", {
      response: authenticator.register(flow.passkey.createOptions),
    });
    const { api } = await finishConsoleSignIn(server.url, driver);
    const made = await accountCall(api, "recoveryCodes");
    expect(made.status).toBe(200);
    const { done } = await setUpTotp(api);
    // The codes made before stay; the app brings no new ones.
    expect(done.json.recoveryCodes).toBeUndefined();
    expect(accountSchema.parse(done.json).recoveryCodesLeft).toBe(recoveryCodeCount);
    // Without the app the passkey is still a second factor, and the codes its fallback.
    const totp = totpOf(accountSchema.parse(done.json));
    const removed = await accountCall(api, `remove/${totp?.id ?? ""}`);
    expect(removed.status).toBe(200);
    expect(accountSchema.parse(removed.json).recoveryCodesLeft).toBe(recoveryCodeCount);
  });

  it("removes the authenticator app with its recovery codes, and it can be set up again", async () => {
    const { api, accountId } = await person();
    const { done } = await setUpTotp(api);
    const totp = totpOf(accountSchema.parse(done.json));
    const other = await person();
    expect(await accountCall(other.api, `remove/${totp?.id ?? ""}`)).toMatchObject({ status: 404 });

    const removed = await accountCall(api, `remove/${totp?.id ?? ""}`);
    expect(removed.status).toBe(200);
    const data = accountSchema.parse(removed.json);
    expect(totpOf(data)).toBeUndefined();
    expect(data.recoveryCodesLeft).toBeUndefined();
    const codes = done.json.recoveryCodes as string[];
    expect(await useRecoveryCode(server.db, secrets.recoveryCodes, accountId, codes[0] ?? "")).toBe(false);
    expect((await signInMethodActivity(api))[0]).toMatchObject({
      type: "credentialRemove",
      providers: ["totp"],
    });
    expect(await accountCall(api, `remove/${totp?.id ?? ""}`)).toMatchObject({ status: 404 });

    const again = await setUpTotp(api);
    expect(again.done.json.recoveryCodes).toHaveLength(recoveryCodeCount);
  });

  it("keeps neither the secret nor the recovery codes in clear", async () => {
    const { api } = await person();
    const { setUp, done } = await setUpTotp(api);
    const codes = done.json.recoveryCodes as string[];
    const clear = [setUp.secret, ...codes, ...codes.map((code) => code.replace("-", ""))];
    const rows = await server.db
      .selectFrom("credentials")
      .select(["data", "provider_id", "display_name"])
      .execute();
    const activities = await server.db.selectFrom("activities").selectAll().execute();
    const stored = JSON.stringify([rows, activities]);
    for (const text of clear) expect(stored).not.toContain(text);
    if (url === undefined) {
      const bytes = ["", "-wal"]
        .map((suffix) => path.join(server.dataDir, `vrata.sqlite${suffix}`))
        .filter((file) => fs.existsSync(file))
        .map((file) => fs.readFileSync(file).toString("latin1"));
      for (const text of clear) for (const file of bytes) expect(file).not.toContain(text);
    }
  });

  it("answers bad bodies with 400", async () => {
    const { api } = await person();
    const setUp = await startSetUp(api);
    for (const body of [
      {},
      { setUpToken: setUp.setUpToken },
      { setUpToken: setUp.setUpToken, code: 123456 },
      { setUpToken: "x".repeat(3000), code: "123456" },
      { setUpToken: setUp.setUpToken, code: "123456", extra: true },
    ])
      expect((await accountCall(api, "totpSetUpComplete", body)).status).toBe(400);
    expect((await accountCall(api, "totpSetUpStart", { extra: true })).status).toBe(400);
    expect((await accountCall(api, "recoveryCodes", { extra: true })).status).toBe(400);
  });
});

describe("an authenticator app's set-up token", () => {
  it("opens for its account only, until it expires", async () => {
    const { sealer } = deriveInstanceSecrets(Buffer.alloc(32, 7));
    const now = Date.now();
    const setUp = await startTotpSetUp(sealer, "account-a", { issuer: "Vrata", label: "a" }, now);
    expect(openTotpSetUp(sealer, "account-a", setUp.setUpToken, now + 1000)).toBe(setUp.secret);
    expect(openTotpSetUp(sealer, "account-b", setUp.setUpToken, now + 1000)).toBeUndefined();
    expect(openTotpSetUp(sealer, "account-a", setUp.setUpToken, now + totpSetUpLifetimeMs)).toBeUndefined();
  });
});
