import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema, type Identity, type MemberChange } from "../src/common/api/identity.ts";
import { rateLimits } from "../src/common/limits.ts";
import { consoleApp, consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";

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
      args: mailArgs(smtp.port),
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
  const activityOf = async (api: ConsoleApi) =>
    activityPageSchema.parse(await (await api("/api/activity")).json()).items;
  const latestActivity = async (api: ConsoleApi) => (await activityOf(api))[0];
  /** Waits until the person is told of a change of their access: that comes after the sharer's answer. */
  const told = (api: ConsoleApi, identityId: string, role: "admin" | "user", count = 1) =>
    expect
      .poll(
        async () =>
          (await activityOf(api)).filter(
            (entry) => entry.identities?.[0]?.id === identityId && entry.changes?.[0]?.role === role,
          ).length,
        { timeout: 20_000 },
      )
      .toBe(count);
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
    await told(user.api, shared, "user");

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
    await told(user.api, shared, "admin");
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

  it("keeps people in the order the admins listed them, whether named by username or by address", async () => {
    const identity = await createIdentity(owner.api, "ana-ordered");
    const listed = ["rok", "Zala@Example.com", "bojan"];
    const answer = await share(owner.api, identity, { users: listed.map((person) => ({ person })) });
    expect(answer.status).toBe(200);
    const shared = identitySchema.parse(await answer.json());
    expect(shared.users?.map((entry) => entry.person)).toEqual(listed);
    expect((await read(owner.api, identity.id)).users).toEqual(shared.users);

    const [byUsername, byAddress, another] = shared.users ?? [];
    const reordered = [another, byAddress, byUsername].map((entry) => ({ id: entry?.id ?? "" }));
    const moved = await share(owner.api, shared, { users: reordered });
    expect(moved.status).toBe(200);
    expect((await read(owner.api, identity.id)).users?.map((entry) => entry.id)).toEqual(
      reordered.map((entry) => entry.id),
    );
  });

  it("answers the same whether an account has the address or not, and tells only an account that has it", async () => {
    const known = "dora@example.com";
    const unknown = "ema@example.com";
    const dora = await FlowDriver.start(server.url, await consoleApp(server.url));
    await dora.step("codeStart", { emailOrUsername: known });
    await dora.step("codeComplete", { code: codeIn(await smtp.waitFor(known)) });

    // Alike identities, each shared with one address: the answers differ in nothing but their IDs
    // and the address named.
    const sharedWith = async (address: string) => {
      const identity = await createIdentity(owner.api, "ana-alike");
      const response = await share(owner.api, identity, { users: [{ person: address }] });
      const shareId = identitySchema.parse(JSON.parse(await response.clone().text())).users?.[0]?.id ?? "";
      const text = (await response.text())
        .replaceAll(identity.id, "identity")
        .replaceAll(shareId, "share")
        .replaceAll(address, "address");
      return { identity, status: response.status, text };
    };
    const toNobody = await sharedWith(unknown);
    const toDora = await sharedWith(known);
    expect(toNobody.status).toBe(200);
    expect(toDora).toMatchObject({ status: 200, text: toNobody.text });

    // The account that has the address can use the identity, and is told by e-mail; both addresses
    // named at once, the address nobody has first: by the time the other is told, it was passed over.
    expect((await dora.identities()).map((listed) => listed.id)).toContain(toDora.identity.id);
    const third = await createIdentity(owner.api, "ana-alike");
    expect((await share(owner.api, third, { users: [{ person: unknown }, { person: known }] })).status).toBe(
      200,
    );
    const notice = await smtp.waitFor(known, 3);
    expect(notice.subject).toContain("An identity was shared with you");
    expect(notice.text).not.toContain("ana-alike");
    expect(smtp.messages.filter((message) => message.to.includes(unknown))).toEqual([]);

    // Whoever signs up with the other address later has what was shared with it.
    const ema = await FlowDriver.start(server.url, await consoleApp(server.url));
    await ema.step("codeStart", { emailOrUsername: unknown });
    await ema.step("codeComplete", { code: codeIn(await smtp.waitFor(unknown)) });
    const emas = (await ema.identities()).map((listed) => listed.id);
    expect(emas).toEqual(expect.arrayContaining([toNobody.identity.id, third.id]));
    expect(emas).not.toContain(toDora.identity.id);
  });

  it("limits the people named, per sharing account and per person, under simultaneous requests", async () => {
    const sharer = await consoleSignUp(server.url, "sonja");
    const identities = async (count: number) => {
      const created: Identity[] = [];
      for (let index = 0; index < count; index++)
        created.push(await createIdentity(sharer.api, "sonja-many"));
      return created;
    };
    const statuses = (responses: Response[]) => responses.map((response) => response.status).sort();
    const { sharesPerPerson, sharesPerAccount } = rateLimits;

    // One address named by more requests at once than it may be: the rest are refused, unanswered.
    const flooded = await Promise.all(
      (await identities(sharesPerPerson.limit + 2)).map((identity) =>
        share(sharer.api, identity, { users: [{ person: "flood@example.com" }] }),
      ),
    );
    expect(statuses(flooded)).toEqual([
      ...Array<number>(sharesPerPerson.limit).fill(200),
      ...Array<number>(2).fill(429),
    ]);
    const refused = flooded.find((response) => response.status === 429);
    expect(await refused?.json()).toMatchObject({ error: "tooManyRequests" });
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    // The address is spared by every sharer, not only this one.
    const another = await createIdentity(owner.api, "ana-flood");
    expect((await share(owner.api, another, { users: [{ person: "flood@example.com" }] })).status).toBe(429);

    // The sharer names different people at once until the account's own limit is reached.
    const left = sharesPerAccount.limit - sharesPerPerson.limit;
    const many = await Promise.all(
      (await identities(left + 2)).map((identity, index) =>
        share(sharer.api, identity, { users: [{ person: `many-${index}@example.com` }] }),
      ),
    );
    expect(statuses(many)).toEqual([...Array<number>(left).fill(200), ...Array<number>(2).fill(429)]);
  });

  it("refuses an unknown username or a malformed address with nothing more than that", async () => {
    const identity = await createIdentity(owner.api, "ana-unknown");
    for (const [person, error] of [
      ["nobody-here", "unknownPerson"],
      ["a b", "unknownPerson"],
      ["ab", "unknownPerson"],
      ["nobody@", "invalidEmail"],
      ["no body@example.com", "invalidEmail"],
    ] as const) {
      const response = await share(owner.api, identity, { users: [{ person }] });
      expect(response.status, person).toBe(400);
      expect(await response.json()).toMatchObject({ error, field: "users.0.person" });
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
