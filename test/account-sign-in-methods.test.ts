import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account } from "../src/common/api/account.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { maxFlowAttempts, rateLimits } from "../src/common/limits.ts";
import { passwordGuessBucket } from "../src/server/flow/throttle.ts";
import { loadInstanceKey } from "../src/server/secrets/instance-key.ts";
import { deriveInstanceSecrets, type InstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { credentialsOf, findAccountIdByCredential } from "../src/server/store/accounts.ts";
import { bucketLevel } from "../src/server/store/throttle.ts";
import { account, answer, call, type Answer } from "./support/account.ts";
import { consoleApp, consoleSignUp, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { mailArgs, startSmtpReceiver, type ReceivedMail } from "./support/smtp.ts";

// The account page's password and e-mail addresses: a password set after a fresh sign-in, changed and
// removed with the current one; addresses added by the code e-mailed to them (over a real SMTP
// exchange), made primary and removed; and the one rule that keeps a way to sign in, held to removals
// sent at the same moment.

type Person = Awaited<ReturnType<typeof consoleSignUp>> & { username: string; accountId: string };

/** The 6-digit code of the e-mail that adds an address. */
const codeOf = (mail: ReceivedMail) => /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1] ?? "";

const byProvider = (data: Account, provider: string) =>
  data.credentials.filter((credential) => credential.provider === provider);

describe.each(storeEngines)("password and e-mail addresses on the account page on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let secrets: InstanceSecrets;
  let people = 0;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({ ...(url ? { postgresUrl: url } : {}), args: mailArgs(smtp.port) });
    secrets = deriveInstanceSecrets(
      await loadInstanceKey({
        kind: "file",
        file: path.join(server.dataDir, "secret.key"),
        createIfMissing: false,
      }),
    );
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  async function person(): Promise<Person> {
    const username = `methods${++people}`;
    const signedUp = await consoleSignUp(server.url, username);
    const accountId = (await findAccountIdByCredential(server.db, "username", username)) ?? "";
    return { ...signedUp, username, accountId };
  }

  /** A call of the account API from the person's browser: its sign-in cookies go along with the token. */
  const fromBrowser = (someone: Person, route: string, body: unknown = {}): Promise<Answer> =>
    fetch(`${server.url}/api/account/${route}`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: {
        authorization: `Bearer ${someone.tokens.access_token}`,
        "content-type": "application/json",
        cookie: someone.driver.jar.header(`${server.url}/auth/`),
      },
    }).then(answer);
  const accountCall = (api: ConsoleApi, route: string, body: unknown = {}) =>
    call(api, `/api/account/${route}`, body);

  async function signsInWith(username: string, password: string): Promise<boolean> {
    const driver = await FlowDriver.start(server.url, await consoleApp(server.url));
    await driver.step("passwordStart", { emailOrUsername: username });
    // A wrong password of an account with e-mail addresses sends a code instead: no sign-in either.
    const { flow } = await driver.step("passwordComplete", { password });
    return flow.completed.includes("signin");
  }

  /** Adds the address by the code it receives; the account as the answer shows it. */
  async function addEmail(someone: Person, address: string): Promise<Account> {
    const sent = smtp.messages.filter(({ to }) => to.includes(address)).length;
    const added = await accountCall(someone.api, "emailAdd", { email: address });
    expect(added.status).toBe(200);
    const pending = (added.json as Account).pendingEmails?.find(({ email }) => email === address);
    const mail = await smtp.waitFor(address, sent + 1);
    const verified = await accountCall(someone.api, `emailVerify/${pending?.id ?? ""}`, {
      code: codeOf(mail),
    });
    expect(verified.status).toBe(200);
    return verified.json as Account;
  }

  async function signInMethodActivity(api: ConsoleApi) {
    const response = await api("/api/activity?category=signInMethods");
    return activityPageSchema.parse(await response.json()).items;
  }

  it("changes the password with the current one, or a fresh sign-in, and only then", async () => {
    const someone = await person();
    const current = `${someone.username}'s passphrase`;
    const [password] = byProvider(await account(someone.api), "password");
    expect(password).toMatchObject({ removable: false, updatedAt: expect.any(String) as string });

    expect(
      await accountCall(someone.api, "password", {
        password: "a new passphrase",
        currentPassword: "not it at all",
      }),
    ).toMatchObject({ status: 400, json: { error: "wrongCurrentPassword" } });
    // Without the current password, a token alone is no fresh sign-in.
    expect(await accountCall(someone.api, "password", { password: "a new passphrase" })).toMatchObject({
      status: 403,
      json: { error: "freshSignInRequired" },
    });
    expect(await signsInWith(someone.username, current)).toBe(true);

    const changed = await accountCall(someone.api, "password", {
      password: "a new passphrase",
      currentPassword: current,
    });
    expect(changed.status).toBe(200);
    expect(await signsInWith(someone.username, current)).toBe(false);
    expect(await signsInWith(someone.username, "a new passphrase")).toBe(true);

    // The browser that signed in minutes ago may change it without typing the old one.
    expect((await fromBrowser(someone, "password", { password: "a third passphrase" })).status).toBe(200);
    expect(await signsInWith(someone.username, "a third passphrase")).toBe(true);
    const types = (await signInMethodActivity(someone.api)).map(({ type, providers }) => [type, providers]);
    expect(types.slice(0, 2)).toEqual([
      ["credentialUpdate", ["password"]],
      ["credentialUpdate", ["password"]],
    ]);
  });

  it("holds a new password to the rules, counting characters, and loses nothing on bad input", async () => {
    const someone = await person();
    const current = `${someone.username}'s passphrase`;
    const refused: [unknown, number, string][] = [
      [{ password: "short", currentPassword: current }, 400, "passwordTooShort"],
      // Seven characters of two UTF-16 units each are still seven.
      [{ password: "😀".repeat(7), currentPassword: current }, 400, "passwordTooShort"],
      [{ password: "x".repeat(1025), currentPassword: current }, 400, "passwordInvalid"],
      [{ password: "with a\u0007bell", currentPassword: current }, 400, "passwordInvalid"],
      [{ password: someone.username.toUpperCase(), currentPassword: current }, 400, "passwordIsIdentifier"],
      [{ password: 12345678, currentPassword: current }, 400, "badRequest"],
      [{ password: "a new passphrase", extra: true }, 400, "badRequest"],
      [{ password: "\u0000".repeat(9) }, 400, "badRequest"],
      ["not an object", 400, "badRequest"],
    ];
    for (const [body, status, error] of refused)
      expect(await accountCall(someone.api, "password", body)).toMatchObject({ status, json: { error } });
    expect(await signsInWith(someone.username, current)).toBe(true);

    const longest = "😀".repeat(1024);
    expect(
      (await accountCall(someone.api, "password", { password: longest, currentPassword: current })).status,
    ).toBe(200);
    expect(await signsInWith(someone.username, longest)).toBe(true);
  });

  it("counts wrong current passwords sent at once against the account's limit, in the store", async () => {
    const someone = await person();
    const { limit } = rateLimits.passwordGuessesPerAccount;
    const answers = await Promise.all(
      Array.from({ length: limit + 6 }, () =>
        accountCall(someone.api, "passwordRemove", { currentPassword: "a wrong passphrase" }),
      ),
    );
    const compared = answers.filter(({ json }) => json.error === "wrongCurrentPassword");
    const limited = answers.filter(({ status, json }) => status === 429 && json.error === "tooManyRequests");
    expect(compared.length).toBe(limit);
    expect(limited.length).toBe(6);
    // The right password waits too, and the sign-in shares the limit.
    const right = await accountCall(someone.api, "password", {
      password: "a new passphrase",
      currentPassword: `${someone.username}'s passphrase`,
    });
    expect(right.status).toBe(429);
    const bucket = passwordGuessBucket(someone.accountId);
    const level = await bucketLevel(server.db, { ...bucket, key: secrets.limitKeys(bucket.key) }, Date.now());
    expect(level).toBeGreaterThan(limit - 1);
    expect(level).toBeLessThanOrEqual(limit);
  });

  it("adds an address by the code e-mailed to it, makes it primary and removes it", async () => {
    const someone = await person();
    const address = `${someone.username}@example.com`;
    const added = await accountCall(someone.api, "emailAdd", { email: `  ${address.toUpperCase()} ` });
    expect(added.status).toBe(200);
    const [pending] = (added.json as Account).pendingEmails ?? [];
    expect(pending?.email).toBe(address.toUpperCase());
    const mail = await smtp.waitFor(address.toUpperCase());
    expect(mail.subject).toContain("Your code to add this address");
    const code = codeOf(mail);
    expect(code).toMatch(/^\d{6}$/);
    // Only a keyed hash of the code is stored.
    const stored = await server.db.selectFrom("email_verifications").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(code);

    const wrong = code === "000000" ? "000001" : "000000";
    expect(await accountCall(someone.api, `emailVerify/${pending?.id ?? ""}`, { code: wrong })).toMatchObject(
      {
        status: 400,
        json: { error: "invalidEmailCode" },
      },
    );
    expect(await accountCall(someone.api, `emailVerify/${pending?.id ?? ""}`, { code: "12" })).toMatchObject({
      status: 400,
      json: { error: "invalidEmailCode" },
    });
    const verified = await accountCall(someone.api, `emailVerify/${pending?.id ?? ""}`, {
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(verified.status).toBe(200);
    const first = byProvider(verified.json as Account, "email");
    expect(first).toMatchObject([{ name: address.toUpperCase(), primary: true, removable: true }]);
    expect((verified.json as Account).pendingEmails).toEqual([]);
    // A code works once.
    expect(await accountCall(someone.api, `emailVerify/${pending?.id ?? ""}`, { code })).toMatchObject({
      status: 400,
      json: { error: "emailCodeExpired" },
    });
    // The address now signs in with a code, and its own account cannot add it twice.
    expect(await accountCall(someone.api, "emailAdd", { email: address })).toMatchObject({
      status: 409,
      json: { error: "emailExists" },
    });

    const second = `${someone.username}.work@example.com`;
    const both = byProvider(await addEmail(someone, second), "email");
    expect(both.map(({ name, primary }) => [name, primary])).toEqual([
      [address.toUpperCase(), true],
      [second, false],
    ]);
    const primary = await accountCall(someone.api, `emailPrimary/${both[1]?.id ?? ""}`);
    expect(byProvider(primary.json as Account, "email").map(({ primary }) => primary)).toEqual([false, true]);

    const removed = await accountCall(someone.api, `remove/${both[1]?.id ?? ""}`);
    expect(removed.status).toBe(200);
    // The oldest address left is primary again.
    expect(byProvider(removed.json as Account, "email")).toMatchObject([
      { name: address.toUpperCase(), primary: true },
    ]);
    const activity = (await signInMethodActivity(someone.api)).map(({ type, providers, credential }) => [
      type,
      providers,
      credential?.name,
    ]);
    expect(activity.slice(0, 4)).toEqual([
      ["credentialRemove", ["email"], second],
      ["credentialUpdate", ["email"], second],
      ["credentialAdd", ["email"], second],
      ["credentialAdd", ["email"], address.toUpperCase()],
    ]);
  });

  it("answers the same whether another account has the address; its code then tells the mailbox's reader", async () => {
    const owner = await person();
    const taken = `${owner.username}@example.com`;
    await addEmail(owner, taken);
    const someone = await person();
    const fresh = `${someone.username}@example.com`;

    const forTaken = await accountCall(someone.api, "emailAdd", { email: taken });
    const forFresh = await accountCall(someone.api, "emailAdd", { email: fresh });
    expect(forTaken.status).toBe(forFresh.status);
    const mailOf = async (address: string) =>
      smtp.waitFor(address, smtp.messages.filter(({ to }) => to.includes(address)).length);
    const [takenMail, freshMail] = await Promise.all([mailOf(taken), mailOf(fresh)]);
    expect(takenMail.text.replace(codeOf(takenMail), "")).toBe(freshMail.text.replace(codeOf(freshMail), ""));
    const pending = (forFresh.json as Account).pendingEmails ?? [];
    expect(pending.map(({ email }) => email)).toEqual([taken, fresh]);

    expect(
      await accountCall(someone.api, `emailVerify/${pending[0]?.id ?? ""}`, { code: codeOf(takenMail) }),
    ).toMatchObject({ status: 409, json: { error: "emailTaken" } });
    expect(byProvider(await account(owner.api), "email").map(({ name }) => name)).toEqual([taken]);
    expect(byProvider(await account(someone.api), "email")).toEqual([]);
  });

  it("refuses bad addresses and codes with 4xx, and a new code replaces the earlier one", async () => {
    const someone = await person();
    for (const email of ["not an address", "@example.com", "a".repeat(300) + "@example.com", ""])
      expect(await accountCall(someone.api, "emailAdd", { email })).toMatchObject({
        status: 400,
        json: { error: expect.stringMatching(/^(invalidEmail|badRequest)$/) as string },
      });
    expect((await accountCall(someone.api, "emailAdd", { email: 5 })).status).toBe(400);
    expect((await accountCall(someone.api, "emailVerify/nothing", { code: "123456" })).status).toBe(404);
    expect(await accountCall(someone.api, "emailPrimary/nothing")).toMatchObject({ status: 404 });

    const address = `${someone.username}@example.com`;
    const firstAnswer = await accountCall(someone.api, "emailAdd", { email: address });
    const firstId = (firstAnswer.json as Account).pendingEmails?.[0]?.id ?? "";
    const firstCode = codeOf(await smtp.waitFor(address, 1));
    const secondAnswer = await accountCall(someone.api, "emailAdd", { email: address });
    const secondId = (secondAnswer.json as Account).pendingEmails?.[0]?.id ?? "";
    const secondCode = codeOf(await smtp.waitFor(address, 2));
    expect((secondAnswer.json as Account).pendingEmails).toHaveLength(1);
    expect(await accountCall(someone.api, `emailVerify/${firstId}`, { code: firstCode })).toMatchObject({
      status: 400,
      json: { error: "emailCodeExpired" },
    });
    // Cancelled, the address is no longer pending and its code no longer works.
    const cancelled = await accountCall(someone.api, `emailCancel/${secondId}`);
    expect((cancelled.json as Account).pendingEmails).toEqual([]);
    expect(await accountCall(someone.api, `emailVerify/${secondId}`, { code: secondCode })).toMatchObject({
      status: 400,
      json: { error: "emailCodeExpired" },
    });
    expect(byProvider(await account(someone.api), "email")).toEqual([]);

    // The e-mail is in the page's language.
    const slovenian = `${someone.username}.sl@example.com`;
    expect((await accountCall(someone.api, "emailAdd", { email: slovenian, locale: "sl" })).status).toBe(200);
    expect((await smtp.waitFor(slovenian)).subject).toContain("Vaša koda za dodajanje naslova");
    expect((await accountCall(someone.api, "emailAdd", { email: slovenian, locale: "de" })).status).toBe(400);
  });

  it("counts wrong codes sent at once against the address's own limit, in the store", async () => {
    const someone = await person();
    const address = `${someone.username}@example.com`;
    const added = await accountCall(someone.api, "emailAdd", { email: address });
    const id = (added.json as Account).pendingEmails?.[0]?.id ?? "";
    const code = codeOf(await smtp.waitFor(address));
    const wrong = code === "000000" ? "000001" : "000000";
    const answers = await Promise.all(
      Array.from({ length: maxFlowAttempts + 5 }, () =>
        accountCall(someone.api, `emailVerify/${id}`, { code: wrong }),
      ),
    );
    expect(answers.filter(({ json }) => json.error === "invalidEmailCode")).toHaveLength(maxFlowAttempts);
    expect(answers.filter(({ status }) => status === 429)).toHaveLength(5);
    expect((await accountCall(someone.api, `emailVerify/${id}`, { code })).status).toBe(429);
    expect(byProvider(await account(someone.api), "email")).toEqual([]);
  });

  it("sets a first password only after a fresh sign-in, and removes it while another way remains", async () => {
    const someone = await person();
    const current = `${someone.username}'s passphrase`;
    // A username and a password are the only way in: the password stays.
    expect(await accountCall(someone.api, "passwordRemove", { currentPassword: current })).toMatchObject({
      status: 409,
      json: { error: "lastSignInMethod" },
    });
    const withEmail = await addEmail(someone, `${someone.username}@example.com`);
    expect(byProvider(withEmail, "password")[0]?.removable).toBe(true);
    expect((await fromBrowser(someone, "passwordRemove")).status).toBe(200);
    expect(await signsInWith(someone.username, current)).toBe(false);
    // The address is now the only way in.
    const [email] = byProvider(await account(someone.api), "email");
    expect(email?.removable).toBe(false);
    expect(await accountCall(someone.api, `remove/${email?.id ?? ""}`)).toMatchObject({
      status: 409,
      json: { error: "lastSignInMethod" },
    });

    expect(await accountCall(someone.api, "password", { password: "a first passphrase" })).toMatchObject({
      status: 403,
      json: { error: "freshSignInRequired" },
    });
    // A current password is no proof when there is none.
    expect(
      await accountCall(someone.api, "password", {
        password: "a first passphrase",
        currentPassword: current,
      }),
    ).toMatchObject({ status: 403, json: { error: "freshSignInRequired" } });
    expect((await fromBrowser(someone, "password", { password: "a first passphrase" })).status).toBe(200);
    expect(await signsInWith(someone.username, "a first passphrase")).toBe(true);
    const [added, removed] = await signInMethodActivity(someone.api);
    expect([added?.type, removed?.type]).toEqual(["credentialAdd", "credentialRemove"]);
    expect(added?.providers).toEqual(["password"]);
  });

  it("never removes the last way to sign in, even when the password and the address go at once", async () => {
    for (let round = 0; round < 3; round++) {
      const someone = await person();
      await addEmail(someone, `${someone.username}@example.com`);
      const data = await account(someone.api);
      const [email] = byProvider(data, "email");
      // Either alone may go (the username and the password, or the address, sign in), not both.
      expect([email?.removable, byProvider(data, "password")[0]?.removable]).toEqual([true, true]);
      const answers = await Promise.all([
        fromBrowser(someone, "passwordRemove"),
        accountCall(someone.api, `remove/${email?.id ?? ""}`),
      ]);
      expect(answers.map(({ status }) => status).sort()).toEqual([200, 409]);
      expect(answers.find(({ status }) => status === 409)?.json.error).toBe("lastSignInMethod");
      const left = (await credentialsOf(server.db, someone.accountId)).map(({ provider }) => provider).sort();
      expect(left.length).toBe(2);
      expect([["email", "username"].join(), ["password", "username"].join()]).toContain(left.join());
    }
  });
});
