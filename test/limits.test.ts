import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as client from "openid-client";
import { rateLimits } from "../src/common/limits.ts";
import path from "node:path";
import { flowGuessBucket } from "../src/server/flow/throttle.ts";
import { loadInstanceKey } from "../src/server/secrets/instance-key.ts";
import { deriveInstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { bucketLevel } from "../src/server/store/throttle.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { CookieJar } from "./support/browser.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { postgresUrl, storeEngines } from "./support/postgres.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Limits hold under simultaneous requests: every guess, code and sign-up is reserved in the store
// before the work it guards, on one instance or several sharing one database. Requests come from many
// loopback addresses (127.0.0.0/8), as from many clients.

const range = (length: number) => Array.from({ length }, (_, index) => index);

interface Answer {
  status: number;
  error: string | undefined;
  completed: string[];
  retryAfter: string | null;
  cookies: string[];
}

async function post(driver: FlowDriver, step: string, body: unknown): Promise<Answer> {
  const response = await driver.raw(step, body);
  const json = (await response.json()) as { error?: string; completed?: string[] };
  return {
    status: response.status,
    error: json.error,
    completed: json.completed ?? [],
    retryAfter: response.headers.get("retry-after"),
    cookies: response.headers.getSetCookie(),
  };
}

const startFlow = (server: TestServer, app: TestApp, from?: string, jar = new CookieJar()) =>
  FlowDriver.start(server.issuer, app, {}, client.None(), jar, from);

async function passwordFlow(server: TestServer, app: TestApp, username: string, from?: string) {
  const driver = await startFlow(server, app, from);
  expect((await driver.step("passwordStart", { emailOrUsername: username })).status).toBe(200);
  return driver;
}

/** Every answer is a step's answer (no 5xx), and none of them signs anybody in. */
function expectNoSignIn(answers: Answer[]) {
  for (const answer of answers) {
    expect(answer.status).toBeLessThan(500);
    expect(answer.completed).not.toContain("signin");
    expect(answer.cookies).toEqual([]);
  }
}

const refusedByLimit = (answer: Answer) => answer.status === 429 && answer.error === "tooManyAttempts";

describe.each(storeEngines)("limits on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: mailArgs(smtp.port),
    });
    app = await registerTestApp(server.db);
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  async function signUp(username: string, password: string, from?: string) {
    const driver = await passwordFlow(server, app, username, from);
    expect((await driver.step("passwordComplete", { password })).flow.completed).toEqual(["signup"]);
    return driver;
  }

  it("evaluates at most the flow's 10 guesses of 30 sent at once, and the flow then refuses", async () => {
    await signUp("limit-one-flow", "the owner's passphrase");
    const attacker = await passwordFlow(server, app, "limit-one-flow", "127.0.10.1");
    const answers = await Promise.all(
      range(30).map((guess) => post(attacker, "passwordComplete", { password: `wrong guess ${guess}` })),
    );
    expectNoSignIn(answers);
    expect(answers.filter((answer) => answer.error === "wrongPassword").length).toBeLessThanOrEqual(9);
    // The store counted exactly ten, under a keyed name that says nothing of the flow or address.
    const { limitKeys } = deriveInstanceSecrets(
      await loadInstanceKey({
        kind: "file",
        file: path.join(server.dataDir, "secret.key"),
        createIfMissing: false,
      }),
    );
    const counter = flowGuessBucket(attacker.flowId);
    expect(await bucketLevel(server.db, { ...counter, key: limitKeys(counter.key) }, Date.now())).toBe(10);
    const storedKeys = await server.db.selectFrom("attempt_counters").select("key").execute();
    for (const { key } of storedKeys) expect(key).toMatch(/^[\w-]{43}$/);

    const right = await post(attacker, "passwordComplete", { password: "the owner's passphrase" });
    expect(right).toMatchObject({ status: 400, cookies: [] });
    expect((await attacker.get()).completed).toEqual(["failed"]);
  });

  it("evaluates at most the account's ceiling of 200 guesses sent at once from 25 addresses", async () => {
    await signUp("limit-many-flows", "the owner's passphrase");
    const attackers = await Promise.all(
      range(25).map((index) => passwordFlow(server, app, "limit-many-flows", `127.0.11.${index + 1}`)),
    );
    const answers = await Promise.all(
      attackers.flatMap((attacker) =>
        range(8).map((guess) => post(attacker, "passwordComplete", { password: `wrong guess ${guess}` })),
      ),
    );
    expectNoSignIn(answers);
    const evaluated = answers.filter((answer) => answer.error === "wrongPassword");
    const refused = answers.filter(refusedByLimit);
    expect(evaluated.length).toBeLessThanOrEqual(rateLimits.passwordGuessesPerAccount.limit);
    expect(evaluated.length + refused.length).toBe(200);
    for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  });

  it("keeps the owner's way in by e-mail code, and from their own browser, while an attacker is throttled", async () => {
    // The owner signs up with an e-mail address and a password, in the browser they keep using.
    const owner = await passwordFlow(server, app, "owner@limits.example");
    await owner.step("passwordComplete", { password: "the owner's passphrase" });
    const signUpCode = codeIn(await smtp.waitFor("owner@limits.example"));
    expect((await owner.step("codeComplete", { code: signUpCode })).flow.completed).toEqual(["signup"]);

    const attackers = await Promise.all(
      range(25).map((index) => passwordFlow(server, app, "owner@limits.example", `127.0.12.${index + 1}`)),
    );
    await Promise.all(
      attackers.flatMap((attacker) =>
        range(3).map((guess) => post(attacker, "passwordComplete", { password: `wrong guess ${guess}` })),
      ),
    );
    // From a browser the account has never seen, the password is refused for now ...
    const elsewhere = await passwordFlow(server, app, "owner@limits.example", "127.0.12.200");
    const refused = await post(elsewhere, "passwordComplete", { password: "the owner's passphrase" });
    expect(refused).toMatchObject({ status: 429, error: "tooManyAttempts", cookies: [] });
    // ... while the owner's own browser, from a new address, gets in by password and by code.
    const ownBrowser = await startFlow(server, app, "127.0.12.201", owner.jar);
    await ownBrowser.step("passwordStart", { emailOrUsername: "owner@limits.example" });
    const byPassword = await ownBrowser.step("passwordComplete", { password: "the owner's passphrase" });
    expect(byPassword).toMatchObject({ status: 200, flow: { completed: ["signin"] } });

    const byCode = await startFlow(server, app, "127.0.12.202", owner.jar);
    const sent = smtp.messages.length;
    expect((await byCode.step("codeStart", { emailOrUsername: "owner@limits.example" })).status).toBe(200);
    await expect.poll(() => smtp.messages.length).toBeGreaterThan(sent);
    const code = codeIn(smtp.messages.at(-1) ?? { text: "" });
    expect((await byCode.step("codeComplete", { code })).flow.completed).toEqual(["signin"]);
  });

  it("evaluates at most 10 of 30 code guesses sent at once on one flow", async () => {
    const driver = await startFlow(server, app, "127.0.13.1");
    expect((await driver.step("codeStart", { emailOrUsername: "guessed@limits.example" })).status).toBe(200);
    const code = codeIn(await smtp.waitFor("guessed@limits.example"));
    const wrong = code === "000000" ? "111111" : "000000";
    const answers = await Promise.all(range(30).map(() => post(driver, "codeComplete", { code: wrong })));
    expectNoSignIn(answers);
    expect(answers.filter((answer) => answer.error === "invalidCode").length).toBeLessThanOrEqual(9);
    const right = await post(driver, "codeComplete", { code });
    expect(right).toMatchObject({ status: 400, cookies: [] });
    expect((await driver.get()).completed).toEqual(["failed"]);
  });

  it("sends a recipient at most its codes at once, to unregistered addresses too", async () => {
    const flows = await Promise.all(
      range(12).map((index) => startFlow(server, app, `127.0.14.${index + 1}`)),
    );
    const answers = await Promise.all(
      flows.map((driver) => post(driver, "codeStart", { emailOrUsername: "flooded@limits.example" })),
    );
    const sent = answers.filter((answer) => answer.status === 200);
    expect(sent).toHaveLength(rateLimits.codesPerRecipient.limit);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
      expect(answer).toMatchObject({ status: 429, error: "tooManyCodes" });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    await expect
      .poll(() => smtp.messages.filter((mail) => mail.to.includes("flooded@limits.example")).length)
      .toBe(rateLimits.codesPerRecipient.limit);
  });

  it("refuses sign-ups from one address beyond its limit, with Retry-After", async () => {
    const { limit } = rateLimits.signUpsPerAddress;
    const answers: Answer[] = [];
    for (const batch of range(4)) {
      const flows = await Promise.all(
        range(30).map((index) => passwordFlow(server, app, `signup-${batch}-${index}`, "127.0.17.1")),
      );
      answers.push(
        ...(await Promise.all(
          flows.map((driver) => post(driver, "passwordComplete", { password: "a passphrase" })),
        )),
      );
    }
    expect(answers.filter((answer) => answer.completed[0] === "signup")).toHaveLength(limit);
    const refused = answers.filter((answer) => answer.completed[0] !== "signup");
    expect(refused).toHaveLength(120 - limit);
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 429, error: "tooManyAttempts", cookies: [] });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
  });

  it("hashes a bounded number of passwords at once, and refuses the rest with Retry-After", async () => {
    const flows = await Promise.all(
      range(120).map((index) => passwordFlow(server, app, `burst-${index}`, `127.0.18.${index + 1}`)),
    );
    const answers = await Promise.all(
      flows.map((driver) => post(driver, "passwordComplete", { password: "a passphrase" })),
    );
    const busy = answers.filter((answer) => answer.status === 429);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) expect(answer).toMatchObject({ error: "tooManyRequests", retryAfter: "1" });
    for (const answer of answers.filter((candidate) => candidate.status !== 429)) {
      expect(answer.completed).toEqual(["signup"]);
    }
  });

  it("sends at most its codes at the request of one address, to any recipients", async () => {
    const { limit } = rateLimits.codesPerAddress;
    const answers: Answer[] = [];
    for (const batch of range(3)) {
      const flows = await Promise.all(range(35).map(() => startFlow(server, app, "127.0.19.1")));
      answers.push(
        ...(await Promise.all(
          flows.map((driver, index) =>
            post(driver, "codeStart", { emailOrUsername: `many-${batch}-${index}@limits.example` }),
          ),
        )),
      );
    }
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(limit);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(105 - limit);
    for (const answer of refused) expect(answer).toMatchObject({ status: 429, error: "tooManyCodes" });
  });

  it("counts guesses at a code sent before the address got an account against that account", async () => {
    const early = await Promise.all(range(2).map(() => startFlow(server, app, "127.0.22.1")));
    for (const driver of early) {
      expect((await driver.step("codeStart", { emailOrUsername: "late@limits.example" })).status).toBe(200);
    }
    // The address's owner signs up in the meantime.
    const owner = await passwordFlow(server, app, "late@limits.example", "127.0.22.2");
    await owner.step("passwordComplete", { password: "the owner's passphrase" });
    await expect
      .poll(() => smtp.messages.filter((mail) => mail.to.includes("late@limits.example")).length)
      .toBe(3);
    const signUpCode = codeIn(
      smtp.messages.filter((mail) => mail.to.includes("late@limits.example"))[2] ?? { text: "" },
    );
    expect((await owner.step("codeComplete", { code: signUpCode })).flow.completed).toEqual(["signup"]);

    const [first, second] = early;
    if (!first || !second) throw new Error("no flows");
    const wrong = range(10).map(() => post(first, "codeComplete", { code: "000000" }));
    for (const answer of await Promise.all(wrong)) expect(answer.status).toBeLessThan(500);
    // The account's limit for this address is used up: the other early flow is refused, not compared.
    expect(await post(second, "codeComplete", { code: "000000" })).toMatchObject({
      status: 429,
      error: "tooManyAttempts",
    });
  });

  it("answers simultaneous sign-ups of one username as sign-ins of the account one of them made", async () => {
    const flows = await Promise.all(
      range(12).map((index) => passwordFlow(server, app, "raced", `127.0.15.${index + 1}`)),
    );
    const same = await Promise.all(
      flows.map((driver) => post(driver, "passwordComplete", { password: "one passphrase" })),
    );
    for (const answer of same) expect(answer.status).toBe(200);
    expect(same.filter((answer) => answer.completed[0] === "signup")).toHaveLength(1);
    expect(same.filter((answer) => answer.completed[0] === "signin")).toHaveLength(11);

    const others = await Promise.all(
      range(6).map((index) => passwordFlow(server, app, "raced-apart", `127.0.16.${index + 1}`)),
    );
    const different = await Promise.all(
      others.map((driver, index) =>
        post(driver, "passwordComplete", { password: `passphrase number ${index}` }),
      ),
    );
    expect(different.filter((answer) => answer.completed[0] === "signup")).toHaveLength(1);
    expect(different.filter((answer) => answer.error === "wrongPassword")).toHaveLength(5);
  });
});

describe.runIf(postgresUrl)("limits across two instances on one PostgreSQL", () => {
  let first: TestServer;
  let second: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const mail = mailArgs(smtp.port);
    first = await startTestServer({ postgresUrl: postgresUrl ?? "", args: mail });
    second = await startTestServer({ postgresUrl: postgresUrl ?? "", args: mail, shareStoreOf: first });
    app = await registerTestApp(first.db);
  });
  afterAll(async () => {
    await second.dispose();
    await first.dispose();
    await smtp.close();
  });

  it("evaluates at most the account's ceiling of guesses split between them", async () => {
    const owner = await passwordFlow(first, app, "two-instances");
    await owner.step("passwordComplete", { password: "the owner's passphrase" });
    const attackers = await Promise.all(
      range(25).map((index) =>
        passwordFlow(index % 2 ? first : second, app, "two-instances", `127.0.20.${index + 1}`),
      ),
    );
    // Each flow's guesses go to both instances: a flow lives in the store, not in an instance.
    const answers = await Promise.all(
      attackers.flatMap((attacker) =>
        range(8).map((guess) =>
          post(attacker.atInstance((guess % 2 ? first : second).issuer), "passwordComplete", {
            password: `wrong guess ${guess}`,
          }),
        ),
      ),
    );
    expectNoSignIn(answers);
    const evaluated = answers.filter((answer) => answer.error === "wrongPassword");
    expect(evaluated.length).toBeLessThanOrEqual(rateLimits.passwordGuessesPerAccount.limit);
    expect(evaluated.length + answers.filter(refusedByLimit).length).toBe(200);
  });

  it("evaluates at most 10 of 300 code guesses on one flow split between them", async () => {
    const driver = await startFlow(first, app, "127.0.21.1");
    await driver.step("codeStart", { emailOrUsername: "split@limits.example" });
    const code = codeIn(await smtp.waitFor("split@limits.example"));
    const wrong = code === "000000" ? "111111" : "000000";
    const onSecond = driver.atInstance(second.issuer);
    const answers = await Promise.all(
      range(300).map((index) => post(index % 2 ? driver : onSecond, "codeComplete", { code: wrong })),
    );
    expectNoSignIn(answers);
    expect(answers.filter((answer) => answer.error === "invalidCode").length).toBeLessThanOrEqual(9);
    expect(await post(driver, "codeComplete", { code })).toMatchObject({ status: 400, cookies: [] });
    expect((await driver.get()).completed).toEqual(["failed"]);
  });
});

describe("limits behind a TLS-terminating proxy", () => {
  let server: TestServer;
  let app: TestApp;
  beforeAll(async () => {
    server = await startTestServer({ args: ["--behind-proxy", "--issuer", "https://id.example.test"] });
    app = await registerTestApp(server.db);
  });
  afterAll(() => server.dispose());

  /** A request as the proxy passes it on: the client's X-Forwarded-For with the address it saw appended. */
  const viaProxy = (path: string, forwardedFor: string, body?: unknown) =>
    fetch(server.url + path, {
      method: body === undefined ? "GET" : "POST",
      redirect: "manual",
      headers: {
        "x-forwarded-proto": "https",
        "x-forwarded-for": forwardedFor,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  async function passwordGuess(forwardedFor: string, password: string) {
    const query = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: "code",
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const authorize = await viaProxy(`/auth/oidc/authorize?${query.toString()}`, forwardedFor);
    const flowId = /\/auth\/([\w-]+)$/.exec(authorize.headers.get("location") ?? "")?.[1] ?? "";
    await viaProxy(`/api/auth/passwordStart/${flowId}`, forwardedFor, { emailOrUsername: "proxied" });
    const answer = await viaProxy(`/api/auth/passwordComplete/${flowId}`, forwardedFor, { password });
    return { status: answer.status, ...((await answer.json()) as { error?: string; completed?: string[] }) };
  }

  it("counts a client by the address the proxy appended, whatever the client wrote before it", async () => {
    expect((await passwordGuess("203.0.113.1", "the owner's passphrase")).completed).toEqual(["signup"]);
    const forged = [];
    for (const index of range(11)) {
      forged.push(await passwordGuess(`198.51.100.${index + 1}, 203.0.113.9`, `wrong guess ${index}`));
    }
    expect(forged.slice(0, 10).map((answer) => answer.error)).toEqual(Array(10).fill("wrongPassword"));
    expect(forged[10]).toMatchObject({ status: 429, error: "tooManyAttempts" });
    // Another client, as the proxy tells, still has its own allowance.
    expect((await passwordGuess("203.0.113.9, 203.0.113.10", "wrong again")).error).toBe("wrongPassword");
  });
});
