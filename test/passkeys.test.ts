import { randomBytes } from "node:crypto";
import path from "node:path";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import * as client from "openid-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { bodyLimitBytes, maxFlowAttempts, rateLimits } from "../src/common/limits.ts";
import { flowGuessBucket } from "../src/server/flow/throttle.ts";
import { loadInstanceKey } from "../src/server/secrets/instance-key.ts";
import { deriveInstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { bucketLevel } from "../src/server/store/throttle.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { flags, SoftwareAuthenticator } from "./support/authenticator.ts";
import { CookieJar } from "./support/browser.ts";
import { consoleApp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Passkeys against a real server, with a software authenticator that signs what a real one signs:
// every refusal below comes from the server's own verification, not from a stand-in.

const title = "Passkey Test";
let server: TestServer;
let app: TestApp;
let rpId: string;

beforeAll(async () => {
  server = await startTestServer({ args: ["--title", title] });
  app = await registerTestApp(server.db, "Notes");
  rpId = new URL(server.issuer).hostname;
});
afterAll(() => server.dispose());

/** A flow of `target` in a new browser; from the loopback address `from`, or the default one. */
const start = (target = app, from?: string) =>
  FlowDriver.start(server.issuer, target, {}, client.None(), new CookieJar(), from);
const newAuthenticator = (options?: { countsSignatures?: boolean }) =>
  new SoftwareAuthenticator(server.issuer, options);

interface Answer {
  status: number;
  json: Record<string, unknown>;
  cookies: string[];
}

async function post(driver: FlowDriver, step: string, body: unknown): Promise<Answer> {
  const response = await driver.raw(step, body);
  return {
    status: response.status,
    json: (await response.json()) as Record<string, unknown>,
    cookies: response.headers.getSetCookie(),
  };
}

/** The options of a new passkey, for a sign-up whose identity is named `naming`. */
async function createOptions(
  driver: FlowDriver,
  naming: Record<string, string> = { name: "passkey-person" },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { status, flow } = await driver.step("passkeyCreateStart", naming);
  expect(status).toBe(200);
  if (!flow.passkey || !("createOptions" in flow.passkey)) throw new Error("no creation options");
  return flow.passkey.createOptions;
}

async function getOptions(driver: FlowDriver): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { status, flow } = await driver.step("passkeyGetStart");
  expect(status).toBe(200);
  if (!flow.passkey || !("getOptions" in flow.passkey)) throw new Error("no request options");
  return flow.passkey.getOptions;
}

const completeCreate = (driver: FlowDriver, response: unknown) =>
  post(driver, "passkeyCreateComplete", { response });
const completeGet = (driver: FlowDriver, response: unknown) =>
  post(driver, "passkeyGetComplete", { response });

/** A new account made with a new passkey, through a flow of `target`. */
async function signUp(authenticator = newAuthenticator(), target = app) {
  const driver = await start(target);
  const answer = await completeCreate(driver, authenticator.register(await createOptions(driver)));
  expect(answer).toMatchObject({ status: 200, json: { completed: ["signup"], providers: ["passkey"] } });
  return { driver, authenticator };
}

async function signIn(authenticator: SoftwareAuthenticator) {
  const driver = await start();
  return { driver, answer: await completeGet(driver, authenticator.authenticate(await getOptions(driver))) };
}

const withSignature = (
  response: AuthenticationResponseJSON,
  signature: string,
): AuthenticationResponseJSON => ({
  ...response,
  response: { ...response.response, signature },
});

const signedIn = (answer: Answer) => answer.status === 200 && answer.cookies.length > 0;

/** The answer is a refusal the page can show, and nobody is signed in. */
function expectRefused(answer: Answer, error = "passkeyFailed") {
  expect(answer).toMatchObject({ status: 400, json: { error, completed: [] } });
  expect(answer.cookies).toEqual([]);
}

async function finish(driver: FlowDriver) {
  const [identity] = await driver.identities();
  expect((await driver.step("chooseIdentity", { identity: { id: identity?.id } })).status).toBe(200);
  expect((await driver.step("redirect")).status).toBe(200);
  return driver.exchange(await driver.returnToApp());
}

describe("passkey sign-up and sign-in", () => {
  it("offers a discoverable passkey sign-up for a new account, as the reference describes", async () => {
    const driver = await start();
    const options = await createOptions(driver);
    expect(options).toMatchObject({
      rp: { name: title, id: rpId },
      attestation: "none",
      timeout: 60_000,
      authenticatorSelection: {
        residentKey: "required",
        requireResidentKey: true,
        userVerification: "required",
      },
      pubKeyCredParams: [
        { type: "public-key", alg: -8 },
        { type: "public-key", alg: -7 },
        { type: "public-key", alg: -257 },
      ],
      excludeCredentials: [],
    });
    expect(Buffer.from(options.user.id, "base64url")).toHaveLength(16);
    // The authenticator lists the passkey under what the person typed, not under its random handle.
    expect(options.user).toMatchObject({ name: "passkey-person", displayName: "passkey-person" });
    // The options come with the start step only; the flow itself does not show them.
    expect((await driver.get()).passkey).toBeUndefined();

    const again = await createOptions(driver);
    expect(again.user.id).not.toBe(options.user.id);
    expect(again.challenge).not.toBe(options.challenge);
  });

  it("asks for any passkey of this site to sign in", async () => {
    const options = await getOptions(await start());
    expect(options).toMatchObject({ rpId, userVerification: "preferred", timeout: 60_000 });
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(Buffer.from(options.challenge, "base64url").length).toBeGreaterThanOrEqual(16);
  });

  it("leaves the flow's method alone until a passkey signs in, so a password can follow autofill's request", async () => {
    const driver = await start();
    await driver.step("passwordStart", { emailOrUsername: "autofill-then-password" });
    await getOptions(driver);
    // The page reloaded now still shows the password step, and the password signs up.
    expect((await driver.get()).providers).toEqual(["password"]);
    const { status, flow } = await driver.step("passwordComplete", { password: "a long enough password" });
    expect(status).toBe(200);
    expect(flow).toMatchObject({ completed: ["signup"], providers: ["password"] });
  });

  it("signs up with a passkey only, then signs in with it, and the app gets the same person both times", async () => {
    const console = await consoleApp(server.issuer);
    const { driver, authenticator } = await signUp(newAuthenticator(), console);
    expect(driver.jar.has(`__Host-session-${driver.flowId}`)).toBe(true);
    // The new account's first identity is named as the person typed before the ceremony.
    const identities = await driver.identities();
    expect(identities.map((identity) => identity.username)).toEqual(["passkey-person"]);
    const first = await finish(driver);

    const again = await FlowDriver.start(server.issuer, console);
    const options = await getOptions(again);
    const answer = await completeGet(again, authenticator.authenticate(options));
    expect(answer).toMatchObject({ status: 200, json: { completed: ["signin"], providers: ["passkey"] } });
    expect(again.jar.has(`__Host-session-${again.flowId}`)).toBe(true);
    const second = await finish(again);
    expect(second.claims()?.sub).toBe(first.claims()?.sub);

    // The person's activity tells how they signed up and in.
    const activity = await fetch(`${server.issuer}/api/activity`, {
      headers: { authorization: `Bearer ${second.access_token}` },
    });
    const page = activityPageSchema.parse(await activity.json());
    const signIns = page.items.filter((item) => item.type === "signIn");
    expect(signIns).toHaveLength(2);
    for (const item of signIns) {
      const entry = await fetch(`${server.issuer}/api/activity/${item.id}`, {
        headers: { authorization: `Bearer ${second.access_token}` },
      });
      expect(await entry.json()).toMatchObject({ type: "signIn", providers: ["passkey"] });
    }
  });

  it("signs in with an authenticator that keeps no signature counter, every time", async () => {
    const { authenticator } = await signUp(newAuthenticator({ countsSignatures: false }));
    for (let time = 0; time < 3; time++) expect(signedIn((await signIn(authenticator)).answer)).toBe(true);
  });

  it("answers an unknown passkey with noAccount and what the browser needs to forget it", async () => {
    const stranger = newAuthenticator();
    stranger.userHandle = randomBytes(16).toString("base64url");
    const { answer } = await signIn(stranger);
    expectRefused(answer, "noAccount");
    expect(answer.json.signalUnknown).toEqual({ rpId, credentialId: stranger.id });
  });

  it("does not let a sign-up take over a passkey another account has", async () => {
    const { authenticator } = await signUp();
    const driver = await start();
    // The same credential ID again, with a key of someone else's choosing: no signature proves it.
    const impostor = Object.assign(newAuthenticator(), { credentialId: authenticator.credentialId });
    expectRefused(await completeCreate(driver, impostor.register(await createOptions(driver))));
    expect(signedIn((await signIn(authenticator)).answer)).toBe(true);
  });

  it("refuses a sign-up without user verification", async () => {
    const driver = await start();
    const options = await createOptions(driver);
    const response = newAuthenticator().register(options, {
      flags: flags.userPresent | flags.attestedCredential,
    });
    expectRefused(await completeCreate(driver, response));
  });
});

describe("passkey verification refuses", () => {
  let owner: SoftwareAuthenticator;
  beforeAll(async () => {
    owner = (await signUp()).authenticator;
  });

  it("an answer made for another origin, on sign-in and on sign-up", async () => {
    const driver = await start();
    const response = owner.authenticate(await getOptions(driver), { origin: "https://evil.example" });
    expectRefused(await completeGet(driver, response));
    // The same flow, asked properly, still signs in.
    expect(signedIn(await completeGet(driver, owner.authenticate(await getOptions(driver))))).toBe(true);

    const signUpFlow = await start();
    const options = await createOptions(signUpFlow);
    const registration = newAuthenticator().register(options, { origin: "https://evil.example" });
    expectRefused(await completeCreate(signUpFlow, registration));
  });

  it("an answer for another RP ID, on sign-in and on sign-up", async () => {
    const driver = await start();
    const response = owner.authenticate(await getOptions(driver), { rpId: "evil.example" });
    expectRefused(await completeGet(driver, response));

    const signUpFlow = await start();
    const registration = newAuthenticator().register(await createOptions(signUpFlow), {
      rpId: "evil.example",
    });
    expectRefused(await completeCreate(signUpFlow, registration));
  });

  it("a challenge used before, even by an answer that failed", async () => {
    const driver = await start();
    const options = await getOptions(driver);
    const genuine = owner.authenticate(options);
    expectRefused(await completeGet(driver, owner.authenticate(options, { origin: "https://evil.example" })));
    // The challenge is gone: the genuine answer to it no longer counts, now or after a new start.
    const replay = await completeGet(driver, genuine);
    expect(replay).toMatchObject({ status: 400, json: { error: "badRequest" }, cookies: [] });
    await getOptions(driver);
    expectRefused(await completeGet(driver, genuine));

    // A sign-in's answer cannot sign in a second time either.
    const first = await start();
    const used = owner.authenticate(await getOptions(first));
    expect(signedIn(await completeGet(first, used))).toBe(true);
    const second = await start();
    await getOptions(second);
    expectRefused(await completeGet(second, used));
  });

  it("a challenge of another flow", async () => {
    const mine = await start();
    const theirs = await start();
    const theirChallenge = await getOptions(theirs);
    await getOptions(mine);
    expectRefused(await completeGet(mine, owner.authenticate(theirChallenge)));
    // The other flow's own challenge was not used up by it.
    expect(signedIn(await completeGet(theirs, owner.authenticate(theirChallenge)))).toBe(true);

    const signUpMine = await start();
    const signUpTheirs = await start();
    const theirCreation = await createOptions(signUpTheirs);
    await createOptions(signUpMine);
    expectRefused(await completeCreate(signUpMine, newAuthenticator().register(theirCreation)));
  });

  it("a signature counter that did not go up", async () => {
    const { authenticator } = await signUp();
    expect(signedIn((await signIn(authenticator)).answer)).toBe(true);
    const stored = authenticator.counter;
    for (const counter of [stored, stored - 1, 0]) {
      const driver = await start();
      const answer = await completeGet(
        driver,
        authenticator.authenticate(await getOptions(driver), { counter }),
      );
      expectRefused(answer);
    }
    const driver = await start();
    const ahead = authenticator.authenticate(await getOptions(driver), { counter: stored + 5 });
    expect(signedIn(await completeGet(driver, ahead))).toBe(true);
  });

  it("a tampered signature", async () => {
    const driver = await start();
    const response = owner.authenticate(await getOptions(driver));
    const signature = Buffer.from(response.response.signature, "base64url");
    signature[signature.length - 1] = (signature.at(-1) ?? 0) ^ 1;
    expectRefused(await completeGet(driver, withSignature(response, signature.toString("base64url"))));
  });

  it("a user handle of someone else", async () => {
    const driver = await start();
    const response = owner.authenticate(await getOptions(driver));
    const other = {
      ...response,
      response: { ...response.response, userHandle: randomBytes(16).toString("base64url") },
    };
    expectRefused(await completeGet(driver, other));
  });
});

describe("malformed passkey answers get a 4xx with a stable code", () => {
  let owner: SoftwareAuthenticator;
  beforeAll(async () => {
    owner = (await signUp()).authenticator;
  });

  const junk = randomBytes(64).toString("base64url");

  it("when their shape is wrong", async () => {
    const driver = await start();
    const options = await getOptions(driver);
    const valid = owner.authenticate(options);
    const shapes: unknown[] = [
      {},
      { response: "not an object" },
      { response: { ...valid, response: undefined } },
      { response: { ...valid, id: "not base64url!" } },
      { response: { ...valid, type: "password" } },
      { response: { ...valid, response: { ...valid.response, signature: 42 } } },
      { response: valid, extra: true },
    ];
    for (const body of shapes) {
      const answer = await post(driver, "passkeyGetComplete", body);
      expect(answer, JSON.stringify(body)).toMatchObject({ status: 400, json: { error: "badRequest" } });
    }
    const creation = await post(await start(), "passkeyCreateComplete", { response: { id: "x" } });
    expect(creation).toMatchObject({ status: 400, json: { error: "badRequest" } });
    // None of them used the challenge up.
    expect(signedIn(await completeGet(driver, valid))).toBe(true);
  });

  it("when their bytes are not what an authenticator sends", async () => {
    const assertionCases = (valid: AuthenticationResponseJSON): AuthenticationResponseJSON[] => [
      { ...valid, response: { ...valid.response, authenticatorData: junk.slice(0, 10) } },
      { ...valid, response: { ...valid.response, clientDataJSON: junk } },
      { ...valid, response: { ...valid.response, signature: junk } },
      { ...valid, response: { ...valid.response, signature: "" } },
    ];
    for (const index of [0, 1, 2, 3]) {
      const driver = await start();
      const response = assertionCases(owner.authenticate(await getOptions(driver)))[index];
      expectRefused(await completeGet(driver, response));
    }

    const attestationCases = (valid: RegistrationResponseJSON): RegistrationResponseJSON[] => [
      { ...valid, response: { ...valid.response, attestationObject: junk } },
      { ...valid, response: { ...valid.response, attestationObject: "" } },
      { ...valid, response: { ...valid.response, clientDataJSON: junk } },
      { ...valid, response: { ...valid.response, clientDataJSON: Buffer.from("{}").toString("base64url") } },
    ];
    for (const index of [0, 1, 2, 3]) {
      const driver = await start();
      const response = attestationCases(newAuthenticator().register(await createOptions(driver)))[index];
      expectRefused(await completeCreate(driver, response));
    }
  });

  it("when they are larger than the server reads", async () => {
    const driver = await start();
    const valid = owner.authenticate(await getOptions(driver));
    const padding = "A".repeat(bodyLimitBytes);
    const huge = { response: { ...valid, response: { ...valid.response, signature: padding } } };
    expect(await post(driver, "passkeyGetComplete", huge)).toMatchObject({
      status: 413,
      json: { error: "payloadTooLarge" },
    });
  });

  it("when no ceremony was started", async () => {
    const driver = await start();
    const answer = await completeGet(driver, owner.authenticate({ challenge: junk, rpId }));
    expect(answer).toMatchObject({ status: 400, json: { error: "badRequest" }, cookies: [] });
    // A sign-in challenge does not answer a sign-up, nor the other way round.
    await getOptions(driver);
    const registration = newAuthenticator().register(await createOptions(await start()));
    expect(await completeCreate(driver, registration)).toMatchObject({
      status: 400,
      json: { error: "badRequest" },
    });
  });
});

// Each test attacks a passkey of its own from a network address of its own, so that the account and
// address limits other tests reach do not decide its outcome.
describe("failed passkey attempts", () => {
  let owner: SoftwareAuthenticator;
  let address = 0;
  let from: string;
  beforeEach(async () => {
    owner = (await signUp()).authenticator;
    from = `127.0.30.${++address}`;
  });

  it("fail the flow at the tenth, as wrong passwords do", async () => {
    const driver = await start(app, from);
    for (let attempt = 1; attempt <= maxFlowAttempts; attempt++) {
      const response = owner.authenticate(await getOptions(driver), { origin: "https://evil.example" });
      const answer = await completeGet(driver, response);
      if (attempt < maxFlowAttempts) expectRefused(answer);
      else expect(answer).toMatchObject({ status: 200, json: { completed: ["failed"] }, cookies: [] });
    }
    expect((await driver.get()).completed).toEqual(["failed"]);
    expect(await post(driver, "passkeyGetStart", {})).toMatchObject({
      status: 400,
      json: { error: "badRequest" },
    });
  });

  it("count unknown passkeys too", async () => {
    const driver = await start(app, from);
    const stranger = newAuthenticator();
    for (let attempt = 1; attempt < maxFlowAttempts; attempt++) {
      expectRefused(await completeGet(driver, stranger.authenticate(await getOptions(driver))), "noAccount");
    }
    const last = await completeGet(driver, stranger.authenticate(await getOptions(driver)));
    expect(last).toMatchObject({ status: 200, json: { completed: ["failed"] } });
    expect(last.json.signalUnknown).toBeUndefined();
  });

  it("on one account from one network wait once there were ten, as wrong passwords do", async () => {
    for (let attempt = 0; attempt < rateLimits.guessesPerAccountAndClient.limit; attempt++) {
      const driver = await start(app, from);
      const response = owner.authenticate(await getOptions(driver), { origin: "https://evil.example" });
      expectRefused(await completeGet(driver, response));
    }
    // Even the right answer waits now: the limit is reserved before anything is verified.
    const driver = await start(app, from);
    const refused = await completeGet(driver, owner.authenticate(await getOptions(driver)));
    expect(refused).toMatchObject({ status: 429, json: { error: "tooManyAttempts" }, cookies: [] });
    // From another network the owner signs in.
    const elsewhere = await start(app, `127.0.31.${address}`);
    expect(signedIn(await completeGet(elsewhere, owner.authenticate(await getOptions(elsewhere))))).toBe(
      true,
    );
  });

  it("sent at once with one challenge: one is verified, the others are turned away before", async () => {
    const driver = await start(app, from);
    const right = owner.authenticate(await getOptions(driver));
    const wrong = withSignature(right, Buffer.alloc(70, 1).toString("base64url"));
    // Connections are opened first, so that the answers reach the server together.
    await Promise.all(Array.from({ length: 20 }, () => driver.get()));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => completeGet(driver, index % 2 === 0 ? right : wrong)),
    );
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    expect(answers.filter(signedIn).length).toBeLessThanOrEqual(1);
    // The flow counted one attempt: only one answer got as far as its verification.
    expect(await flowGuesses(driver.flowId)).toBe(1);
    const verified = answers.filter(
      (answer) => answer.status === 200 || answer.json.error === "passkeyFailed",
    );
    expect(verified).toHaveLength(1);
    const others = answers.filter((answer) => !verified.includes(answer));
    for (const answer of others) expect([400, 409]).toContain(answer.status);
  });

  it("sent at once on many starts: the flow evaluates ten at most, then fails", async () => {
    const driver = await start(app, from);
    const attempt = async () => {
      const started = await post(driver, "passkeyGetStart", {});
      const passkey = started.json.passkey as
        { getOptions?: PublicKeyCredentialRequestOptionsJSON } | undefined;
      if (!passkey?.getOptions) return started;
      const forged = withSignature(
        owner.authenticate(passkey.getOptions),
        Buffer.alloc(70, 1).toString("base64url"),
      );
      return completeGet(driver, forged);
    };
    const answers = await Promise.all(Array.from({ length: 30 }, attempt));
    // Those that lost a race to another step of the flow (409) try again, one at a time, until it fails.
    for (let more = 0; more < 2 * maxFlowAttempts && (await driver.get()).completed.length === 0; more++) {
      answers.push(await attempt());
    }
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(500);
      expect(answer.cookies).toEqual([]);
    }
    expect((await driver.get()).completed).toEqual(["failed"]);
    expect(answers.filter((answer) => answer.json.error === "passkeyFailed").length).toBeLessThan(
      maxFlowAttempts,
    );
    expect(await flowGuesses(driver.flowId)).toBe(maxFlowAttempts);
  });
});

/** The guesses the store counted for the flow, under the keyed name it knows them by. */
async function flowGuesses(flowId: string): Promise<number> {
  const key = await loadInstanceKey({
    kind: "file",
    file: path.join(server.dataDir, "secret.key"),
    createIfMissing: false,
  });
  const { limitKeys } = deriveInstanceSecrets(key);
  const counter = flowGuessBucket(flowId);
  return bucketLevel(server.db, { ...counter, key: limitKeys(counter.key) }, Date.now());
}
