import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account } from "../src/common/api/account.ts";
import { accountSessionsSchema } from "../src/common/api/account-sessions.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import type { TotpSetUp } from "../src/common/api/second-factor.ts";
import { credentialsOf, findAccountIdByCredential } from "../src/server/store/accounts.ts";
import { SoftwareAuthenticator } from "./support/authenticator.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { mailArgs, startSmtpReceiver } from "./support/smtp.ts";
import { attempts, sentTogether, statusCounts } from "./support/together.ts";
import { totpCode } from "./support/totp-codes.ts";

// What the account page takes once, each sent several times at the same moment: the code that adds
// an e-mail address, a passkey's answer to its challenge, the first code of an authenticator app, and
// the ending of a browser's session.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("the account page's single uses at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({ postgresUrl: url, args: mailArgs(smtp.port) });
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  let people = 0;
  async function person() {
    const username = `page${++people}`;
    const signedUp = await consoleSignUp(server.url, username);
    return {
      ...signedUp,
      accountId: (await findAccountIdByCredential(server.db, "username", username)) ?? "",
    };
  }

  /** A call of the account page from the person's browser (its cookies go along with the token). */
  const fromBrowser = (someone: Person, path: string, body: unknown = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: {
        authorization: `Bearer ${someone.tokens.access_token}`,
        "content-type": "application/json",
        cookie: someone.driver.jar.header(`${server.url}${path}`),
      },
    });
  const json = async <T>(response: Promise<Response>) => (await (await response).json()) as T;

  it("adds an e-mail address once by its code", async () => {
    const someone = await person();
    const added = await json<Account>(
      postJson(someone.api, "/api/account/emailAdd", { email: "ada@example.com" }),
    );
    const id = added.pendingEmails?.[0]?.id ?? "";
    const code = /^\s*(\d{6})\s*$/m.exec((await smtp.waitFor("ada@example.com")).text)?.[1] ?? "";
    const answers = await sentTogether(server.url, () =>
      postJson(someone.api, `/api/account/emailVerify/${id}`, { code }),
    );
    const counts = statusCounts(answers);
    expect(counts[200]).toBe(1);
    // The others find the code used, or reach the address's ceiling of guesses while the first is stored.
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(attempts - 1);
    expect(answers.filter(({ status }) => status === 400).map(({ json }) => json?.error)).toEqual(
      Array.from({ length: counts[400] ?? 0 }, () => "emailCodeExpired"),
    );
    expect(await credentialsOf(server.db, someone.accountId, "email")).toHaveLength(1);
  });

  it("stores a passkey once for its answer", async () => {
    const someone = await person();
    const { createOptions } = await json<{ createOptions: PublicKeyCredentialCreationOptionsJSON }>(
      postJson(someone.api, "/api/account/passkeyCreateStart", {}),
    );
    const response = new SoftwareAuthenticator(server.issuer).register(createOptions);
    const answers = await sentTogether(server.url, () =>
      postJson(someone.api, "/api/account/passkeyCreateComplete", { response }),
    );
    expect(statusCounts(answers)).toEqual({ 200: 1, 400: attempts - 1 });
    expect(await credentialsOf(server.db, someone.accountId, "passkey")).toHaveLength(1);
  });

  it("sets an authenticator app up once, with one set of recovery codes", async () => {
    const someone = await person();
    const setUp = await json<TotpSetUp>(postJson(someone.api, "/api/account/totpSetUpStart", {}));
    const code = totpCode(setUp.secret);
    const answers = await sentTogether(server.url, () =>
      postJson(someone.api, "/api/account/totpSetUpComplete", { setUpToken: setUp.setUpToken, code }),
    );
    const counts = statusCounts(answers);
    expect(counts[200]).toBe(1);
    // The others find it set up, or reach the account's ceiling of guesses while the first is stored.
    expect((counts[409] ?? 0) + (counts[429] ?? 0)).toBe(attempts - 1);
    expect(answers.filter(({ json }) => json?.recoveryCodes !== undefined)).toHaveLength(1);
    expect(await credentialsOf(server.db, someone.accountId, "totp")).toHaveLength(1);
  });

  it("ends another browser's session once", async () => {
    const here = await person();
    const username = `page${people}`;
    await consoleSignUp(server.url, username);
    const listed = accountSessionsSchema.parse(
      await (
        await fetch(`${server.url}/api/account/sessions`, {
          headers: {
            authorization: `Bearer ${here.tokens.access_token}`,
            cookie: here.driver.jar.header(`${server.url}/api/account/sessions`),
          },
        })
      ).json(),
    ).sessions;
    const other = listed.find(({ current }) => !current);
    expect(other).toBeDefined();
    const answers = await sentTogether(server.url, () =>
      fromBrowser(here, `/api/account/sessions/end/${other?.id ?? ""}`),
    );
    expect(statusCounts(answers)).toEqual({ 200: 1, 404: attempts - 1 });
    const entries = activityPageSchema.parse(
      await (await here.api("/api/activity?category=signIns")).json(),
    ).items;
    expect(entries.filter(({ type }) => type === "sessionEnd")).toHaveLength(1);
  });
});
