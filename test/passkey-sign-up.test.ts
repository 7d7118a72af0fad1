import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountSchema } from "../src/common/api/account.ts";
import { findFlow, updateFlowState } from "../src/server/store/flows.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { SoftwareAuthenticator } from "./support/authenticator.ts";
import { consoleApp, consoleSignUp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// A passkey sign-up proves no username or e-mail address, so the person names the new identity before
// the ceremony: what they type is what apps see (checked in ID tokens read by openid-client), and the
// new passkey is called by its make and the day it was made.

const iCloudKeychain = "fbfc3007-154e-4ecc-8c0b-6e020557d7bd";
const monthsEn = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const monthsSl = [
  "jan.",
  "feb.",
  "mar.",
  "apr.",
  "maj",
  "jun.",
  "jul.",
  "avg.",
  "sep.",
  "okt.",
  "nov.",
  "dec.",
];

/** Today (UTC) as the account page shows a new passkey's day, in English and in Slovenian. */
function today(locale: "en" | "sl"): string {
  const now = new Date();
  const [day, month, year] = [now.getUTCDate(), now.getUTCMonth(), now.getUTCFullYear()];
  return locale === "en" ? `${day} ${monthsEn[month]} ${year}` : `${day}. ${monthsSl[month]} ${year}`;
}

describe.each(storeEngines)("passkey sign-up on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  let console: TestApp;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    app = await registerTestApp(server.db, "Notes");
    console = await consoleApp(server.issuer);
  });
  afterAll(() => server.dispose());

  const start = (target = app) => FlowDriver.start(server.issuer, target);

  async function createOptions(
    driver: FlowDriver,
    naming: object,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { status, flow } = await driver.step("passkeyCreateStart", naming);
    expect(status).toBe(200);
    if (!flow.passkey || !("createOptions" in flow.passkey)) throw new Error("no creation options");
    return flow.passkey.createOptions;
  }

  /** Signs up with a new passkey for an identity named `naming`, picks it and returns to the app. */
  async function signUp(
    naming: object,
    target = app,
    authenticator = new SoftwareAuthenticator(server.issuer),
  ) {
    const driver = await start(target);
    const options = await createOptions(driver, naming);
    const created = await driver.step("passkeyCreateComplete", { response: authenticator.register(options) });
    expect(created).toMatchObject({ status: 200, flow: { completed: ["signup"] } });
    const identities = await driver.identities();
    expect(identities).toHaveLength(1);
    await driver.step("chooseIdentity", { identity: { id: identities[0]?.id } });
    await driver.step("redirect");
    const tokens = await driver.exchange(await driver.returnToApp());
    return { options, identity: identities[0], tokens };
  }

  /** The new account's sign-in methods, as its account page lists them. */
  async function accountOf(tokens: { access_token: string }) {
    const response = await fetch(`${server.url}/api/account`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    return accountSchema.parse(await response.json()).credentials;
  }

  it("refuses what cannot name an identity with a code the page shows, and the flow goes on", async () => {
    const driver = await start();
    const mistakes: [object, string][] = [
      [{ name: "" }, "missingName"],
      [{ name: " \t " }, "missingName"],
      [{ name: "ab" }, "shortUsername"],
      [{ name: "ana@example.com" }, "invalidUsername"],
      // A Cyrillic "а" among Latin letters passes for someone else's username.
      [{ name: "pаypal" }, "invalidUsername"],
      [{ name: "x".repeat(255) }, "invalidUsername"],
      [{ name: `Ana ${"x".repeat(200)}` }, "invalidName"],
      [{ name: "Ana\u200b Novak" }, "invalidName"],
      [{ name: "ana", email: "not-an-address" }, "invalidEmail"],
      [{ name: "ana", email: "ana@" }, "invalidEmail"],
      [{ name: "Ana Novak", email: "two words@example.com" }, "invalidEmail"],
    ];
    for (const [naming, error] of mistakes) {
      const answer = await driver.raw("passkeyCreateStart", naming);
      const json = (await answer.json()) as Record<string, unknown>;
      expect({ status: answer.status, error: json.error }, JSON.stringify(naming)).toEqual({
        status: 400,
        error,
      });
      expect(json).toMatchObject({ completed: [] });
      expect(json.passkey).toBeUndefined();
    }
    const shapes = [
      {},
      { name: 5 },
      { name: "ana", extra: true },
      { name: "ana", locale: "de" },
      { name: "ana", email: null },
      { name: "x".repeat(5000) },
    ];
    for (const body of shapes) {
      const answer = await driver.raw("passkeyCreateStart", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toMatchObject({ error: "badRequest" });
    }
    // None of it was a guess: the same flow signs up once the name is right.
    const options = await createOptions(driver, { name: "ana" });
    const response = new SoftwareAuthenticator(server.issuer).register(options);
    expect((await driver.step("passkeyCreateComplete", { response })).flow.completed).toEqual(["signup"]);
  });

  it("makes the identity of a username and an address, which is what the app's ID token says", async () => {
    const { options, identity, tokens } = await signUp({
      name: " Ana_Novak ",
      email: "Ana.Novak@Example.com",
    });
    expect(options.user).toMatchObject({ name: "Ana_Novak", displayName: "Ana_Novak" });
    expect(identity).toMatchObject({ username: "Ana_Novak", email: "Ana.Novak@Example.com" });
    expect(identity?.fullName).toBeUndefined();
    expect(tokens.claims()).toMatchObject({
      preferred_username: "Ana_Novak",
      email: "Ana.Novak@Example.com",
      // Nobody proved the address: it is the identity's, not a way to sign in.
      email_verified: false,
    });
  });

  it("makes a name of several words the identity's name, and makes up no username", async () => {
    const { options, identity, tokens } = await signUp({ name: "  Ana   Novak " });
    expect(options.user).toMatchObject({ name: "Ana Novak", displayName: "Ana Novak" });
    expect(identity).toMatchObject({ fullName: "Ana Novak" });
    expect(identity?.username).toBeUndefined();
    const claims = tokens.claims();
    expect(claims).toMatchObject({ name: "Ana Novak" });
    expect(claims?.preferred_username).toBeUndefined();

    // With an address, the authenticator lists the passkey under the address, with the name beside it.
    const withAddress = await signUp({ name: "Ana Novak", email: "ana@example.com" });
    expect(withAddress.options.user).toMatchObject({ name: "ana@example.com", displayName: "Ana Novak" });
  });

  it("does not tell whether a username or an address has an account, and takes over neither", async () => {
    const owner = await consoleSignUp(server.url, "taken-name");
    const { identity, tokens } = await signUp({ name: "taken-name", email: "taken@example.com" }, console);
    expect(identity).toMatchObject({ username: "taken-name", email: "taken@example.com" });
    // The new account signs in with its passkey only; what it typed found nor joined another account.
    const credentials = await accountOf(tokens);
    expect(credentials.map(({ provider }) => provider)).toEqual(["passkey"]);
    expect(tokens.claims()?.sub).not.toBe(owner.tokens.claims()?.sub);
    const again = await consoleSignUp(server.url, "taken-name");
    expect(again.tokens.claims()?.sub).toBe(owner.tokens.claims()?.sub);
  });

  it("asks again for a ceremony that a server of an earlier version started without a name", async () => {
    const driver = await start();
    const options = await createOptions(driver, { name: "upgrading" });
    // What such a server stored: the challenge and the user handle, nothing about the identity.
    const row = await findFlow(server.db, driver.flowId, Date.now());
    const state = JSON.parse(row?.state ?? "{}") as { passkey: Record<string, unknown> };
    delete state.passkey.identity;
    delete state.passkey.locale;
    expect(await updateFlowState(server.db, driver.flowId, row?.version ?? 0, JSON.stringify(state))).toBe(
      true,
    );

    const response = new SoftwareAuthenticator(server.issuer).register(options);
    const refused = await driver.raw("passkeyCreateComplete", { response });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "badRequest" });
    const again = new SoftwareAuthenticator(server.issuer).register(
      await createOptions(driver, { name: "upgrading" }),
    );
    expect((await driver.step("passkeyCreateComplete", { response: again })).flow.completed).toEqual([
      "signup",
    ]);
    expect((await driver.identities()).map(({ username }) => username)).toEqual(["upgrading"]);
  });

  it("names the new passkey by its make and the day it was made, in the page's language", async () => {
    const iCloud = new SoftwareAuthenticator(server.issuer, { aaguid: iCloudKeychain });
    const known = await signUp({ name: "keychain-person", locale: "en" }, console, iCloud);
    expect((await accountOf(known.tokens)).map(({ name }) => name)).toEqual([
      `iCloud Keychain, ${today("en")}`,
    ]);

    const unknown = await signUp({ name: "oseba-s-kljucem", locale: "sl" }, console);
    expect((await accountOf(unknown.tokens)).map(({ name }) => name)).toEqual([
      `Ključ za dostop, ${today("sl")}`,
    ]);
  });
});
