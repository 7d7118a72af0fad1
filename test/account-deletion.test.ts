import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountDeletionSchema } from "../src/common/api/account-deletion.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema, type Identity } from "../src/common/api/identity.ts";
import { newId } from "../src/server/ids.ts";
import { findAccountIdByCredential, insertCredential } from "../src/server/store/accounts.ts";
import { answer } from "./support/account.ts";
import {
  accountPageApp,
  consoleApp,
  consoleSignUp,
  finishConsoleSignIn,
  postJson,
  type ConsoleApi,
} from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { LogoutReceiver } from "./support/logout-receiver.ts";
import {
  organizationWithApp,
  organizationWithAppToldOfLogouts,
  signInToApp as signInToPublicApp,
} from "./support/organization-admin.ts";
import { CookieJar } from "./support/browser.ts";
import type { TestApp } from "./support/apps.ts";
import * as client from "openid-client";
import { decodeJwt } from "jose";

// Deleting an account: asked after a fresh sign-in, kept during the grace period from the account
// page or from a sign-in, and carried out by the cleanup once the grace period is over.

const dayMs = 24 * 60 * 60 * 1000;
type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("deleting an account on $name", ({ url }) => {
  let server: TestServer;
  let receiver: LogoutReceiver;
  beforeAll(async () => {
    receiver = await LogoutReceiver.start();
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: ["--backchannel-logout-private"],
    });
  });
  afterAll(async () => {
    await server.dispose();
    await receiver.close();
  });

  let people = 0;
  const signUp = (name = `deleted${++people}`) => consoleSignUp(server.url, name);

  /** A call of the person's browser: its console token and the single sign-on session's cookie. */
  const fromBrowser = (person: Person, route: string, body: unknown = {}) =>
    person.driver.fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${person.tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const deletion = async (api: ConsoleApi) =>
    accountDeletionSchema.parse(await (await api("/api/account/deletion")).json());
  const ask = async (person: Person, name: string) =>
    answer(await fromBrowser(person, "/api/account/delete", { confirmation: name }));

  /** The person signs in to the app in the browser of `jar`, with their first identity (named after them). */
  async function signInToApp(
    name: string,
    club: { app: TestApp; auth: client.ClientAuth },
    jar = new CookieJar(),
  ) {
    const browser = await FlowDriver.start(server.url, club.app, { scope: "openid profile" }, club.auth, jar);
    // A browser signed in already starts at the identity step.
    if ((await browser.get()).singleSignOn !== true) {
      await browser.step("passwordStart", { emailOrUsername: name });
      await browser.step("passwordComplete", { password: `${name}'s passphrase` });
    }
    const first = (await browser.identities()).find((identity) => identity.username === name);
    await browser.step("chooseIdentity", { identity: { id: first?.id } });
    await browser.step("redirect");
    return browser.exchange(await browser.returnToApp());
  }

  /** A new browser signing in to the console with the person's password, up to what the flow asks next. */
  const signIn = async (name: string) => {
    const driver = await FlowDriver.start(server.url, await consoleApp(server.url));
    await driver.step("passwordStart", { emailOrUsername: name });
    const { flow } = await driver.step("passwordComplete", { password: `${name}'s passphrase` });
    return { driver, flow };
  };

  it("is asked after a fresh sign-in and typing the username, and kept from the account page", async () => {
    const name = `deleted${++people}`;
    const person = await signUp(name);
    expect(await deletion(person.api)).toEqual({ confirmWith: name, graceDays: 7 });

    // The console's token alone proves no fresh sign-in.
    const tokenOnly = await answer(await postJson(person.api, "/api/account/delete", { confirmation: name }));
    expect(tokenOnly).toMatchObject({ status: 403, json: { error: "freshSignInRequired" } });
    for (const body of [{}, { confirmation: 5 }, { confirmation: name, more: true }])
      expect(await answer(await fromBrowser(person, "/api/account/delete", body))).toMatchObject({
        status: 400,
      });
    expect(await ask(person, "someone else")).toMatchObject({
      status: 400,
      json: { error: "deletionNotConfirmed" },
    });

    const before = Date.now();
    const asked = await ask(person, name.toUpperCase());
    expect(asked.status).toBe(200);
    const dueAt = Date.parse(accountDeletionSchema.parse(asked.json).dueAt ?? "");
    expect(dueAt).toBeGreaterThanOrEqual(before + 7 * dayMs);
    expect(dueAt).toBeLessThanOrEqual(Date.now() + 7 * dayMs);
    expect((await deletion(person.api)).dueAt).toBe(new Date(dueAt).toISOString());

    const kept = await answer(await postJson(person.api, "/api/account/deleteCancel", {}));
    expect(kept.status).toBe(200);
    expect(accountDeletionSchema.parse(kept.json).dueAt).toBeUndefined();
    expect(await answer(await postJson(person.api, "/api/account/deleteCancel", {}))).toMatchObject({
      status: 409,
      json: { error: "deletionNotPending" },
    });
    const activity = activityPageSchema.parse(await (await person.api("/api/activity")).json()).items;
    expect(activity.slice(0, 2).map((entry) => entry.type)).toEqual([
      "accountDeletionCancelled",
      "accountDeletionRequested",
    ]);
  });

  it("a sign-in during the grace period stops to offer keeping the account", async () => {
    const name = `deleted${++people}`;
    const person = await signUp(name);
    // The person signed in to an app of another organization in this browser before.
    const club = await organizationWithAppToldOfLogouts(await signUp(), `Club ${people}`, receiver.url);
    const jar = person.driver.jar;
    await signInToApp(name, club, jar);
    expect((await ask(person, name)).status).toBe(200);

    const declined = await signIn(name);
    expect(declined.flow.deletionDueAt).toBeDefined();
    // Nothing of the account is shown to the flow, and nothing is finished for the app.
    const identities = await declined.driver.fetch(`${server.url}/api/i?flow=${declined.driver.flowId}`);
    expect(identities.status).toBe(401);
    await declined.driver.step("decline");
    expect((await deletion(person.api)).dueAt).toBeDefined();

    // A browser signed in already gets no answer at once from an app it chose an identity for: the
    // flow offers to keep the account, and leaving tells the app no; so does the console. The account
    // page's own client still answers, so that the page shows the pending deletion.
    const browser = await FlowDriver.start(server.url, club.app, { scope: "openid profile" }, club.auth, jar);
    expect(await browser.get()).toMatchObject({ completed: ["signin"], singleSignOn: true });
    expect((await browser.get()).deletionDueAt).toBeDefined();
    await browser.step("decline");
    await browser.step("redirect");
    expect((await browser.returnToApp()).searchParams.get("error")).toBe("access_denied");
    const console = await FlowDriver.start(server.url, await consoleApp(server.url), {}, undefined, jar);
    expect((await console.get()).deletionDueAt).toBeDefined();
    const accountPage = await FlowDriver.startSignedIn(
      server.url,
      await accountPageApp(server.url),
      { scope: "openid" },
      undefined,
      jar,
    );
    expect(accountPage.callback.searchParams.get("code")).toBeTruthy();

    const kept = await signIn(name);
    const { flow } = await kept.driver.step("deletionCancel");
    expect(flow.deletionDueAt).toBeUndefined();
    const { api } = await finishConsoleSignIn(server.url, kept.driver);
    expect((await deletion(api)).dueAt).toBeUndefined();
  });

  it("gives an app no code for a sign-in under way when the deletion is asked for meanwhile", async () => {
    const name = `deleted${++people}`;
    const person = await signUp(name);
    const { app } = await organizationWithApp(await signUp(), `Archive ${people}`);
    // A member of the app's organization already…
    await signInToPublicApp(server.url, app, name);
    // …signs in to the app in another browser and chooses the identity…
    const browser = await FlowDriver.start(server.url, app, { scope: "openid profile" });
    await browser.step("passwordStart", { emailOrUsername: name });
    await browser.step("passwordComplete", { password: `${name}'s passphrase` });
    const [identity] = await browser.identities();
    await browser.step("chooseIdentity", { identity: { id: identity?.id } });
    // …while the person asks for the deletion in the console.
    expect((await ask(person, name)).status).toBe(200);
    await browser.step("redirect");
    const back = await browser.returnToApp();
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.has("code")).toBe(false);
  });

  it("gives apps nothing more while the deletion is pending, and again once the account is kept", async () => {
    const name = `deleted${++people}`;
    const person = await signUp(name);
    const { app } = await organizationWithApp(await signUp(), `Library ${people}`);
    const { tokens } = await signInToPublicApp(server.url, app, name);
    const config = await client.discovery(new URL(server.issuer), app.clientId, undefined, client.None());
    config[client.customFetch] = (target, options) =>
      fetch(target.replace(server.issuer, server.url), options as RequestInit);
    const userinfo = () =>
      fetch(`${server.url}/api/auth/oidc/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    expect((await userinfo()).status).toBe(200);

    expect((await ask(person, name)).status).toBe(200);
    // The app's refresh token and access token, issued before, are refused while the account waits.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect((await userinfo()).status).toBe(401);

    // Kept, the account's apps go on as before.
    expect((await postJson(person.api, "/api/account/deleteCancel", {})).status).toBe(200);
    expect((await userinfo()).status).toBe(200);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect(refreshed.claims()?.sub).toBe(tokens.claims()?.sub);
  });

  it("after the grace period, the account and what only it held are gone from the store's files", async () => {
    const name = `zorba${++people}`;
    const person = await signUp(name);
    const keeperName = `keeper${people}`;
    const keeper = await signUp(keeperName);
    const club = await organizationWithAppToldOfLogouts(keeper, `Club ${people}`, receiver.url);
    const accountId = (await findAccountIdByCredential(server.db, "username", name)) ?? "";
    const address = `Zorba.Quill${people}@deleted.example`;
    await insertCredential(
      server.db,
      {
        id: newId(),
        accountId,
        provider: "email",
        providerId: address.toLowerCase(),
        displayName: address,
        data: "{}",
      },
      Date.now(),
    );
    const read = async (api: ConsoleApi, id: string) =>
      identitySchema.parse(await (await api(`/api/i/${id}`)).json());
    const created = await postJson(person.api, "/api/i/create", { fullName: "Shared Sabinewood" });
    const sharedId = ((await created.json()) as { id: string }).id;
    const shared: Identity = await read(person.api, sharedId);
    const sharing = await postJson(person.api, `/api/i/update/${sharedId}`, {
      version: shared.version,
      users: [{ person: `keeper${people}` }],
    });
    expect(sharing.status).toBe(200);
    const sole = await postJson(person.api, "/api/i/create", { fullName: "Quintessa Marbleford" });
    expect(sole.status).toBe(201);
    // The other person shares one of theirs with this one: their activity names them by username.
    const theirs = await postJson(keeper.api, "/api/i/create", { fullName: "Keeper Own" });
    const theirsId = ((await theirs.json()) as { id: string }).id;
    const theirsRead = await read(keeper.api, theirsId);
    const sharedBack = await postJson(keeper.api, `/api/i/update/${theirsId}`, {
      version: theirsRead.version,
      users: [{ person: name }],
    });
    expect(sharedBack.status).toBe(200);
    await expect
      .poll(async () =>
        activityPageSchema
          .parse(await (await person.api("/api/activity")).json())
          .items.some((entry) => entry.identities?.[0]?.id === theirsId),
      )
      .toBe(true);
    // The person signs in to the other person's app with their first identity (named after them).
    const appTokens = await signInToApp(name, club);
    const sid = appTokens.claims()?.["sid"];
    expect(sid).toBeTruthy();

    expect((await ask(person, name)).status).toBe(200);
    const secrets = [name, address, address.toLowerCase(), "Quintessa Marbleford", accountId];
    // What the files are searched for is there to be found while the account is.
    const before = storeContents();
    for (const secret of secrets) expect(before, secret).toContain(secret);
    // Before the grace period ends nothing goes; after it, every instance may run the cleanup at once.
    await server.cleanUp(Date.now() + dayMs);
    expect(await findAccountIdByCredential(server.db, "username", name)).toBe(accountId);
    await Promise.all([server.cleanUp(Date.now() + 8 * dayMs), server.cleanUp(Date.now() + 8 * dayMs)]);
    expect(await findAccountIdByCredential(server.db, "username", name)).toBeUndefined();

    expect((await person.api("/api/account")).status).toBe(401);

    // The app was told that the person's session ended, by the identity it knew them by.
    const logout = () => receiver.tokens.map((token) => decodeJwt(token)).find((token) => token.sid === sid);
    await expect.poll(logout).toBeTruthy();
    expect(logout()?.sub).toBe(appTokens.claims()?.sub);

    // The shared identity stays with the other person, who now administers it (signed in again: the
    // cleanup ran eight days ahead, when their earlier tokens have expired).
    const again = await consoleSignUp(server.url, keeperName, keeper.identityId);
    const kept = await read(again.api, sharedId);
    expect(kept.fullName).toBe("Shared Sabinewood");
    expect(kept.canUpdate).toBe(true);

    // The organization of the first identity sees it removed, and nothing more.
    const organizationId = club.app.organizationId;
    const seen = await again.api(`/api/o/activity/${organizationId}`);
    expect(seen.status).toBe(200);
    const { items } = activityPageSchema.parse(await seen.json());
    expect(items.filter((entry) => entry.type === "identityRemoved")).toEqual([
      { id: expect.any(String) as string, timestamp: expect.any(String) as string, type: "identityRemoved" },
    ]);
    const removed = await server.db
      .selectFrom("activities")
      .select(["document", "account_id"])
      .where("type", "=", "identityRemoved")
      .innerJoin("activity_organizations", "activity_organizations.activity_id", "activities.id")
      .where("activity_organizations.organization_id", "=", organizationId)
      .execute();
    expect(removed.length).toBeGreaterThan(0);
    expect(
      removed.every((row) => row.account_id === null && row.document === '{"type":"identityRemoved"}'),
    ).toBe(true);

    const contents = storeContents();
    for (const secret of secrets) expect(contents, secret).not.toContain(secret);
  });

  /** Everything the store's files hold: the SQLite database with its WAL and SHM, or a pg_dump. */
  function storeContents(): string {
    if (url && server.postgresSchema) {
      return execFileSync("pg_dump", ["--data-only", `--schema=${server.postgresSchema}`, url], {
        encoding: "latin1",
        maxBuffer: 256 * 1024 * 1024,
      });
    }
    const files = fs.readdirSync(server.dataDir, { recursive: true, encoding: "utf8" });
    return files
      .filter((file) => /\.sqlite(-wal|-shm)?$|\.db(-wal|-shm)?$/.test(file))
      .map((file) => fs.readFileSync(path.join(server.dataDir, file)).toString("latin1"))
      .join("\n");
  }
});
