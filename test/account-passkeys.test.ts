import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountSchema, type Account } from "../src/common/api/account.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { newId } from "../src/server/ids.ts";
import { findAccountIdByCredential, insertCredential } from "../src/server/store/accounts.ts";
import { account, answer, call } from "./support/account.ts";
import { SoftwareAuthenticator } from "./support/authenticator.ts";
import { consoleApp, consoleSignUp, finishConsoleSignIn, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// The account page's API: a signed-in person lists their ways to sign in and manages their
// passkeys, made by a software authenticator that signs what a real one signs.

const title = "Account Test";
let server: TestServer;
let rpId: string;

beforeAll(async () => {
  server = await startTestServer({ args: ["--title", title] });
  rpId = new URL(server.issuer).hostname;
});
afterAll(() => server.dispose());

const newAuthenticator = () => new SoftwareAuthenticator(server.issuer);

async function createOptions(api: ConsoleApi): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const started = await call(api, "/api/account/passkeyCreateStart");
  expect(started.status).toBe(200);
  return (started.json as { createOptions: PublicKeyCredentialCreationOptionsJSON }).createOptions;
}

/** Adds a passkey made by `authenticator`; the answer of the complete call. */
async function addPasskey(api: ConsoleApi, authenticator = newAuthenticator(), name?: string) {
  const response = authenticator.register(await createOptions(api));
  return call(api, "/api/account/passkeyCreateComplete", { response, ...(name ? { name } : {}) });
}

const passkeysOf = (data: Account) => data.credentials.filter(({ provider }) => provider === "passkey");

let people = 0;
/** A person who signed up to the console with a username and a password. */
const personWithPassword = () => consoleSignUp(server.url, `person${++people}`);

/** A person whose only way to sign in is the passkey they signed up with. */
async function personWithPasskeyOnly() {
  const authenticator = newAuthenticator();
  const driver = await FlowDriver.start(server.issuer, await consoleApp(server.issuer));
  const { flow } = await driver.step("passkeyCreateStart", { name: "Passkey Person" });
  if (!flow.passkey || !("createOptions" in flow.passkey)) throw new Error("no creation options");
  const created = await driver.step("passkeyCreateComplete", {
    response: authenticator.register(flow.passkey.createOptions),
  });
  expect(created.flow.completed).toEqual(["signup"]);
  const { api } = await finishConsoleSignIn(server.url, driver);
  const accountId = await findAccountIdByCredential(server.db, "passkey", authenticator.id);
  return { api, authenticator, accountId: accountId ?? "" };
}

async function removals(api: ConsoleApi) {
  const response = await api("/api/activity?category=signInMethods");
  return activityPageSchema.parse(await response.json()).items;
}

describe("the account's sign-in methods", () => {
  it("lists every way to sign in, passwords without their hash", async () => {
    const { api } = await personWithPassword();
    const data = await account(api);
    expect(data.credentials.map(({ provider, name, removable }) => ({ provider, name, removable }))).toEqual([
      { provider: "username", name: `person${people}`, removable: false },
      { provider: "password", name: "", removable: false },
    ]);
    expect(JSON.stringify(data)).not.toContain("argon2");
  });

  it("answers 401 without a token and refuses calls made from a flow", async () => {
    expect((await fetch(`${server.url}/api/account`)).status).toBe(401);
    const anonymous = await fetch(`${server.url}/api/account/passkeyCreateStart`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
    const { api } = await personWithPassword();
    const fromFlow = await answer(await api("/api/account?flow=abc"));
    expect(fromFlow).toMatchObject({ status: 403, json: { error: "consoleOnly" } });
    expect(await call(api, "/api/account/passkeyCreateStart?flow=abc")).toMatchObject({
      status: 403,
      json: { error: "consoleOnly" },
    });
  });
});

describe("adding a passkey", () => {
  it("offers options for the account and stores the passkey its answer makes", async () => {
    const { api } = await personWithPassword();
    const options = await createOptions(api);
    expect(options).toMatchObject({
      rp: { name: title, id: rpId },
      user: { name: `person${people}` },
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      pubKeyCredParams: [{ alg: -8 }, { alg: -7 }, { alg: -257 }],
      excludeCredentials: [],
    });
    expect(Buffer.from(options.user.id, "base64url")).toHaveLength(16);
    const authenticator = newAuthenticator();
    const added = await call(api, "/api/account/passkeyCreateComplete", {
      response: authenticator.register(options),
      name: "  Laptop  ",
    });
    expect(added.status).toBe(200);
    const [passkey] = passkeysOf(accountSchema.parse(added.json));
    expect(passkey).toMatchObject({ name: "Laptop", synced: false, backedUp: false, removable: true });
    expect(passkey?.authenticator).toBeUndefined();
    expect(passkey?.lastUsedAt).toBeUndefined();

    // The next passkey is made for the same user handle, and not on an authenticator holding this one.
    const next = await createOptions(api);
    expect(next.user.id).toBe(options.user.id);
    expect(next.excludeCredentials).toEqual([
      { id: authenticator.id, type: "public-key", transports: ["internal"] },
    ]);
  });

  it("names a passkey without a name by a name the account's passkeys do not have yet", async () => {
    const { api } = await personWithPassword();
    await addPasskey(api);
    const second = await addPasskey(api);
    expect(passkeysOf(accountSchema.parse(second.json)).map(({ name }) => name)).toEqual([
      "Passkey",
      "Passkey 2",
    ]);
    // The page says what to call one in the reader's language.
    const response = newAuthenticator().register(await createOptions(api));
    const third = await call(api, "/api/account/passkeyCreateComplete", { response, defaultName: "Ključ" });
    expect(passkeysOf(accountSchema.parse(third.json)).at(-1)?.name).toBe("Ključ");
  });

  it("refuses answers for another site, another RP ID, a used or another account's challenge", async () => {
    const { api } = await personWithPassword();
    const authenticator = newAuthenticator();
    const complete = (response: unknown) => call(api, "/api/account/passkeyCreateComplete", { response });

    const wrongOrigin = authenticator.register(await createOptions(api), { origin: "https://evil.example" });
    expect(await complete(wrongOrigin)).toMatchObject({ status: 400, json: { error: "passkeyFailed" } });
    const wrongRp = authenticator.register(await createOptions(api), { rpId: "evil.example" });
    expect(await complete(wrongRp)).toMatchObject({ status: 400, json: { error: "passkeyFailed" } });
    const noVerification = authenticator.register(await createOptions(api), { flags: 0x41 });
    expect(await complete(noVerification)).toMatchObject({ status: 400, json: { error: "passkeyFailed" } });

    const good = authenticator.register(await createOptions(api));
    expect((await complete(good)).status).toBe(200);
    expect(await complete(good)).toMatchObject({ status: 400, json: { error: "passkeyExpired" } });

    const other = await personWithPassword();
    const theirs = newAuthenticator().register(await createOptions(other.api));
    expect(await complete(theirs)).toMatchObject({ status: 400, json: { error: "passkeyExpired" } });
    // Refusing it did not use it up for its own account.
    const mine = await call(other.api, "/api/account/passkeyCreateComplete", { response: theirs });
    expect(mine.status).toBe(200);
    expect(passkeysOf(await account(api))).toHaveLength(1);
  });

  it("lets answers sent at once use a challenge once", async () => {
    const { api } = await personWithPassword();
    const response = newAuthenticator().register(await createOptions(api));
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(api, "/api/account/passkeyCreateComplete", { response })),
    );
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 400, 400]);
    expect(passkeysOf(await account(api))).toHaveLength(1);
  });

  it("refuses a passkey that is stored already, for this account or another", async () => {
    const { api } = await personWithPassword();
    const authenticator = newAuthenticator();
    expect((await addPasskey(api, authenticator)).status).toBe(200);
    expect(await addPasskey(api, authenticator)).toMatchObject({
      status: 409,
      json: { error: "passkeyExists" },
    });
    const other = await personWithPassword();
    expect(await addPasskey(other.api, authenticator)).toMatchObject({
      status: 409,
      json: { error: "passkeyExists" },
    });
  });

  it("refuses malformed bodies with 400", async () => {
    const { api } = await personWithPassword();
    const options = await createOptions(api);
    const response = newAuthenticator().register(options);
    for (const body of [
      {},
      { response: "x" },
      { response: { ...response, id: "not base64url!" } },
      { response, name: "" },
      { response, name: "x".repeat(101) },
      { response, extra: 1 },
    ]) {
      expect(await call(api, "/api/account/passkeyCreateComplete", body)).toMatchObject({
        status: 400,
        json: { error: "badRequest" },
      });
    }
    expect(await call(api, "/api/account/passkeyCreateStart", { x: 1 })).toMatchObject({ status: 400 });
    const notJson = await api("/api/account/passkeyCreateStart", { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
  });
});

describe("renaming a passkey", () => {
  it("renames it, refusing empty, long and duplicate names and other credentials", async () => {
    const { api } = await personWithPassword();
    await addPasskey(api, newAuthenticator(), "Phone");
    const added = accountSchema.parse((await addPasskey(api, newAuthenticator(), "Laptop")).json);
    const [phone, laptop] = passkeysOf(added);
    const rename = (id: string, name: unknown) => call(api, `/api/account/rename/${id}`, { name });

    const renamed = await rename(laptop?.id ?? "", " Work laptop ");
    expect(renamed.status).toBe(200);
    expect(passkeysOf(accountSchema.parse(renamed.json)).map(({ name }) => name)).toEqual([
      "Phone",
      "Work laptop",
    ]);
    expect(await rename(laptop?.id ?? "", "Phone")).toMatchObject({
      status: 409,
      json: { error: "duplicateCredentialName" },
    });
    for (const name of ["", "   ", "x".repeat(101), 5, "a\u0000b"])
      expect(await rename(phone?.id ?? "", name)).toMatchObject({
        status: 400,
        json: { error: "badRequest" },
      });
    const password = added.credentials.find(({ provider }) => provider === "password");
    expect(await rename(password?.id ?? "", "Mine")).toMatchObject({
      status: 400,
      json: { error: "credentialNotManaged" },
    });
    const other = await personWithPassword();
    expect(await call(other.api, `/api/account/rename/${phone?.id ?? ""}`, { name: "Mine" })).toMatchObject({
      status: 404,
      json: { error: "notFound" },
    });
    expect(await rename(newId(), "Mine")).toMatchObject({ status: 404 });
  });
});

describe("removing a passkey", () => {
  it("removes it, with what the browser needs to forget it, but not another account's", async () => {
    const { api } = await personWithPassword();
    const authenticator = newAuthenticator();
    const [passkey] = passkeysOf(accountSchema.parse((await addPasskey(api, authenticator)).json));
    const other = await personWithPassword();
    expect(await call(other.api, `/api/account/remove/${passkey?.id ?? ""}`)).toMatchObject({ status: 404 });
    const removed = await call(api, `/api/account/remove/${passkey?.id ?? ""}`);
    expect(removed).toMatchObject({
      status: 200,
      json: { signalUnknown: { rpId, credentialId: authenticator.id } },
    });
    expect(passkeysOf(accountSchema.parse(removed.json))).toEqual([]);
    expect(await call(api, `/api/account/remove/${passkey?.id ?? ""}`)).toMatchObject({ status: 404 });
  });

  it("never removes the last way to sign in, even when two removals come at once", async () => {
    const { api } = await personWithPasskeyOnly();
    let [first] = passkeysOf(await account(api));
    expect(first?.removable).toBe(false);
    expect(await call(api, `/api/account/remove/${first?.id ?? ""}`)).toMatchObject({
      status: 409,
      json: { error: "lastSignInMethod" },
    });

    await addPasskey(api);
    const both = passkeysOf(await account(api));
    expect(both.map(({ removable }) => removable)).toEqual([true, true]);
    const answers = await Promise.all(both.map(({ id }) => call(api, `/api/account/remove/${id}`)));
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 409]);
    [first] = passkeysOf(await account(api));
    expect(passkeysOf(await account(api))).toHaveLength(1);
    expect(first?.removable).toBe(false);
  });

  it("removes every passkey while a password or a verified e-mail address remains", async () => {
    const withPassword = await personWithPassword();
    await addPasskey(withPassword.api);
    await addPasskey(withPassword.api);
    for (const { id } of passkeysOf(await account(withPassword.api)))
      expect((await call(withPassword.api, `/api/account/remove/${id}`)).status).toBe(200);

    const withEmail = await personWithPasskeyOnly();
    await insertCredential(
      server.db,
      {
        id: newId(),
        accountId: withEmail.accountId,
        provider: "email",
        providerId: `${withEmail.accountId}@example.com`,
        displayName: `${withEmail.accountId}@example.com`,
        data: "{}",
      },
      Date.now(),
    );
    const [passkey] = passkeysOf(await account(withEmail.api));
    expect(passkey?.removable).toBe(true);
    expect((await call(withEmail.api, `/api/account/remove/${passkey?.id ?? ""}`)).status).toBe(200);
    expect((await account(withEmail.api)).credentials.map(({ provider }) => provider)).toContain("email");
  });
});

describe("activity", () => {
  it("records adding, renaming and removing a passkey with its name at the time", async () => {
    const { api } = await personWithPassword();
    const [passkey] = passkeysOf(
      accountSchema.parse((await addPasskey(api, newAuthenticator(), "Phone")).json),
    );
    const id = passkey?.id ?? "";
    await call(api, `/api/account/rename/${id}`, { name: "Old phone" });
    await call(api, `/api/account/remove/${id}`);
    const entries = await removals(api);
    expect(entries.map(({ type, providers, credential }) => ({ type, providers, credential }))).toEqual([
      { type: "credentialRemove", providers: ["passkey"], credential: { id, name: "Old phone" } },
      {
        type: "credentialUpdate",
        providers: ["passkey"],
        credential: { id, name: "Old phone", previousName: "Phone" },
      },
      { type: "credentialAdd", providers: ["passkey"], credential: { id, name: "Phone" } },
    ]);
  });
});
