import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema, type Identity, type MemberChange } from "../src/common/api/identity.ts";
import { consoleApp, consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver } from "./support/smtp.ts";

// An identity's admins share it with other people, by their username or e-mail address: as users, who
// may sign in with it but not change it, or as admins. The last admin always stays.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("shared identities on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let owner: Person;
  let user: Person;
  let stranger: Person;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: ["--mail-host", "127.0.0.1", "--mail-port", String(smtp.port), "--no-mail-starttls"],
    });
    owner = await consoleSignUp(server.url, "ana");
    user = await consoleSignUp(server.url, "bojan");
    stranger = await consoleSignUp(server.url, "rok");
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  const read = async (api: ConsoleApi, id: string) => {
    const response = await api(`/api/i/${id}`);
    expect(response.status).toBe(200);
    return identitySchema.parse(await response.json());
  };
  const share = (
    api: ConsoleApi,
    identity: Pick<Identity, "id" | "version">,
    lists: { users?: MemberChange[]; admins?: MemberChange[] },
  ) => postJson(api, `/api/i/update/${identity.id}`, { version: identity.version, ...lists });
  const createIdentity = async (api: ConsoleApi, username: string) => {
    const response = await postJson(api, "/api/i/create", { username });
    expect(response.status).toBe(201);
    return read(api, ((await response.json()) as { id: string }).id);
  };
  const latestActivity = async (api: ConsoleApi) =>
    activityPageSchema.parse(await (await api("/api/activity")).json()).items[0];
  /** A new console flow of the person, signed in with their password, up to the identity step. */
  const identityStep = async (username: string) => {
    const driver = await FlowDriver.start(server.url, await consoleApp(server.url));
    await driver.step("passwordStart", { emailOrUsername: username });
    await driver.step("passwordComplete", { password: `${username}'s passphrase` });
    return driver;
  };

  it("a user picks the shared identity in a flow but cannot change it; an admin can", async () => {
    const shared = owner.identityId;
    const before = await read(owner.api, shared);
    expect(before.admins).toEqual([{ id: shared, creator: true, isCurrent: true }]);
    expect(before.users).toEqual([]);

    const added = await share(owner.api, before, { users: [{ person: "Bojan" }] });
    expect(added.status).toBe(200);
    const afterShare = identitySchema.parse(await added.json());
    expect(afterShare).toMatchObject({ username: "ana", version: before.version + 1, canUpdate: true });
    expect(afterShare.users).toEqual([
      { id: expect.any(String) as string, person: "Bojan", creator: false, isCurrent: false },
    ]);

    // The user's identity step lists it as used with the console before, and they can continue with it.
    const flow = await identityStep("bojan");
    const listed = (await flow.identities()).find((identity) => identity.id === shared);
    expect(listed).toMatchObject({
      canUpdate: false,
      membership: { status: "active", usedWithApp: true },
    });
    expect((await flow.step("chooseIdentity", { identity: { id: shared } })).status).toBe(200);

    // Reading it, they see neither who else may use it nor who administers it, and cannot change it.
    const seen = await read(user.api, shared);
    expect(seen).toMatchObject({ id: shared, canUpdate: false });
    expect(seen.users).toBeUndefined();
    expect(seen.admins).toBeUndefined();
    const refused = await postJson(user.api, `/api/i/update/${shared}`, {
      version: seen.version,
      username: "taken-over",
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "forbidden" });
    expect((await share(user.api, seen, { users: [] })).status).toBe(403);

    // Made an admin (by the same person's name, which moves their share), they can.
    const shareId = afterShare.users?.[0]?.id ?? "";
    const promoted = await share(owner.api, afterShare, { admins: [{ id: shared }, { person: "bojan" }] });
    expect(promoted.status).toBe(200);
    const afterPromotion = identitySchema.parse(await promoted.json());
    expect(afterPromotion.users).toEqual([]);
    expect(afterPromotion.admins?.map((admin) => admin.id)).toEqual([shared, shareId]);
    const asAdmin = await read(user.api, shared);
    expect(asAdmin.canUpdate).toBe(true);
    expect(asAdmin.admins).toEqual([
      { id: shared, creator: true, isCurrent: false },
      { id: shareId, person: "Bojan", creator: false, isCurrent: true },
    ]);
    const edited = await postJson(user.api, `/api/i/update/${shared}`, {
      version: asAdmin.version,
      username: "ana",
      description: "shared with Bojan",
    });
    expect(edited.status).toBe(200);
    expect(await read(owner.api, shared)).toMatchObject({ description: "shared with Bojan" });

    // Each sees what they did in their activity; the user is also told about their new rights, and
    // only about their own.
    expect(await latestActivity(user.api)).toMatchObject({
      type: "identityUpdate",
      changes: [{ kind: "otherData", fields: ["description"] }],
    });
    const adminTold = {
      type: "identityUpdate",
      identities: [{ id: shared, name: "ana" }],
      changes: [{ kind: "permissionsAdded", role: "admin", people: ["Bojan"] }],
    };
    const ownerEntries = activityPageSchema.parse(await (await owner.api("/api/activity")).json()).items;
    expect(ownerEntries[0]).toMatchObject(adminTold);
    expect(ownerEntries[1]).toMatchObject({
      changes: [{ kind: "permissionsAdded", role: "user", people: ["Bojan"] }],
    });
    const userEntries = activityPageSchema.parse(await (await user.api("/api/activity")).json()).items;
    expect(userEntries[1]).toMatchObject(adminTold);
    expect(userEntries[2]).toMatchObject({
      identities: [{ id: shared }],
      changes: [{ kind: "permissionsAdded", role: "user", people: ["Bojan"] }],
    });
  });

  it("shares by e-mail address, and removing a user takes their access away at once", async () => {
    const email = "cvetka@example.com";
    const driver = await FlowDriver.start(server.url, await consoleApp(server.url));
    await driver.step("codeStart", { emailOrUsername: email });
    await driver.step("codeComplete", { code: codeIn(await smtp.waitFor(email)) });

    const identity = await createIdentity(owner.api, "ana-e-mail");
    const added = identitySchema.parse(
      await (await share(owner.api, identity, { users: [{ person: "Cvetka@Example.com" }] })).json(),
    );
    expect(added.users).toMatchObject([{ person: "Cvetka@Example.com" }]);
    expect((await driver.identities()).map((listed) => listed.id)).toContain(identity.id);

    const removed = await share(owner.api, added, { users: [] });
    expect(removed.status).toBe(200);
    expect(identitySchema.parse(await removed.json()).users).toEqual([]);
    expect((await driver.identities()).map((listed) => listed.id)).not.toContain(identity.id);
    const chosen = await driver.raw("chooseIdentity", { identity: { id: identity.id } });
    expect(chosen.status).toBe(404);
    expect(await latestActivity(owner.api)).toMatchObject({
      changes: [{ kind: "permissionsRemoved", role: "user", people: ["Cvetka@Example.com"] }],
    });
  });

  it("refuses an unknown person with nothing more than that", async () => {
    const identity = await createIdentity(owner.api, "ana-unknown");
    for (const person of ["nobody-here", "nobody@example.com", "a b", "ab"]) {
      const response = await share(owner.api, identity, { users: [{ person }] });
      expect(response.status, person).toBe(400);
      expect(await response.json()).toMatchObject({ error: "unknownPerson", field: "users.0.person" });
    }
    const self = await share(owner.api, identity, { admins: [{ id: identity.id }, { person: "ana" }] });
    expect(await self.json()).toMatchObject({ error: "alreadyShared", field: "admins.1.person" });
    const bad = await share(owner.api, identity, { users: [{ id: "1111111111111111111111" }] });
    expect(await bad.json()).toMatchObject({ error: "unknownIdentity", field: "users.0.id" });
    expect(await read(owner.api, identity.id)).toMatchObject({ version: identity.version, users: [] });
  });

  it("users and admins are changed at the console only, not from a sign-in under way", async () => {
    const identity = await createIdentity(owner.api, "ana-console-only");
    const flow = await identityStep("ana");
    const response = await flow.fetch(`${server.url}/api/i/update/${identity.id}?flow=${flow.flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: identity.version, users: [{ person: "bojan" }] }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "consoleOnly" });
    expect(await read(owner.api, identity.id)).toMatchObject({ version: identity.version, users: [] });
  });

  it("answers strangers 401, people without access 404, users 403", async () => {
    const identity = await createIdentity(owner.api, "ana-private");
    const anonymous = await fetch(`${server.url}/api/i/update/${identity.id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: identity.version, users: [] }),
    });
    expect(anonymous.status).toBe(401);
    expect((await fetch(`${server.url}/api/i/${identity.id}`)).status).toBe(401);
    expect((await stranger.api(`/api/i/${identity.id}`)).status).toBe(404);
    const guess = await share(stranger.api, identity, { users: [{ person: "rok" }] });
    expect(guess.status).toBe(404);
    expect(await guess.json()).toMatchObject({ error: "notFound" });

    const shared = identitySchema.parse(
      await (await share(owner.api, identity, { users: [{ person: "rok" }] })).json(),
    );
    const asUser = await share(stranger.api, shared, { admins: [{ person: "rok" }] });
    expect(asUser.status).toBe(403);
  });

  it("the last admin cannot be removed, not even by two removals made at once", async () => {
    const identity = await createIdentity(owner.api, "ana-last");
    const alone = await share(owner.api, identity, { admins: [] });
    expect(alone.status).toBe(409);
    expect(await alone.json()).toMatchObject({ error: "lastAdmin", field: "admins" });
    const demoted = await share(owner.api, identity, { users: [{ id: identity.id }] });
    expect(await demoted.json()).toMatchObject({ error: "lastAdmin" });

    const two = identitySchema.parse(
      await (await share(owner.api, identity, { admins: [{ id: identity.id }, { person: "bojan" }] })).json(),
    );
    const [creator, other] = two.admins ?? [];
    expect(other?.person).toBe("bojan");
    // The owner removes the other admin while that admin removes the creator's entry, both at once.
    const answers = await Promise.all([
      share(owner.api, two, { admins: [{ id: creator?.id ?? "" }] }),
      share(user.api, two, { admins: [{ id: other?.id ?? "" }] }),
    ]);
    // One wins; the other is refused, as stale (409) or, when it comes second, as no longer its admin's.
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    const readers = await Promise.all(
      [owner, user].map(async (person) => ({ person, response: await person.api(`/api/i/${identity.id}`) })),
    );
    const admins = readers.filter(({ response }) => response.status === 200);
    expect(admins).toHaveLength(1);
    const remaining = identitySchema.parse(await admins[0]?.response.json());
    expect(remaining.admins).toHaveLength(1);

    // Whoever remains can hand it over, but not leave it without an admin.
    const last = admins[0]?.person ?? owner;
    expect(await (await share(last.api, remaining, { admins: [] })).json()).toMatchObject({
      error: "lastAdmin",
    });
  });
});
