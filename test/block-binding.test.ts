import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identityInvitationListSchema, type InvitationRole } from "../src/common/api/invitation.ts";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { documentListSchema } from "../src/common/api/summary.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { organizationWithApp, signInToApp, type ConsoleUser } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// A block binds every identity it covers in every role: a blocked admin (or an admin whose account
// an account-wide block covers) is no admin of the organization, cannot lift the block, and cannot
// accept the organization's invitations, even one made before the block.

describe.each(storeEngines)("a block binds in every role on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;
  let organization: Organization;
  let app: TestApp;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "olga");
    ({ organization, app } = await organizationWithApp(owner, "Bound"));
  });
  afterAll(() => server.dispose());

  const base = () => organization.id;
  const blockPath = (sub: string) => `/api/o/block/${base()}/${sub}`;
  const block = (api: ConsoleApi, sub: string, scope: "identity" | "identityAndAccounts") =>
    postJson(api, blockPath(sub), { scope });
  const unblock = (api: ConsoleApi, sub: string) => postJson(api, blockPath(sub), { unblock: true });
  const invite = async (identityId: string, role: InvitationRole) => {
    const response = await postJson(owner.api, `/api/o/invite/${base()}`, { identityId, role });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const accept = (api: ConsoleApi, identityId: string, invitationId: string) =>
    postJson(api, `/api/i/accept/${identityId}/${invitationId}`, {});
  const pending = async (api: ConsoleApi, identityId: string) =>
    identityInvitationListSchema.parse(await (await api(`/api/i/invitations/${identityId}`)).json());
  const errorOf = async (response: Response) => ({
    status: response.status,
    error: ((await response.json()) as { error?: string }).error,
  });

  /**
   * A person who signs in to the organization's app (a member, with the scoped ID `sub`) and is then
   * made one of its admins by invitation; `api` acts as that identity at the console.
   */
  async function memberAdmin(username: string) {
    const signedIn = await signInToApp(server.url, app, username);
    const person = await consoleSignUp(server.url, username, signedIn.identityId);
    const accepted = await accept(person.api, person.identityId, await invite(person.identityId, "admin"));
    expect(accepted.status).toBe(200);
    return { ...person, sub: signedIn.tokens.claims()?.sub ?? "" };
  }

  /** A second identity of the person's account, at the console: an admin of the organization too. */
  async function secondAdmin(person: { api: ConsoleApi }, username: string) {
    const created = await postJson(person.api, "/api/i/create", { username });
    const { id } = (await created.json()) as { id: string };
    const signedIn = await consoleSignUp(server.url, username.split("-")[0] ?? "", id);
    expect((await accept(signedIn.api, id, await invite(id, "admin"))).status).toBe(200);
    return signedIn;
  }

  /** Every admin action of the organization, as the caller, with the answers' statuses and codes. */
  async function adminAnswers(api: ConsoleApi, otherSub: string) {
    const current = organizationSchema.parse(await (await owner.api(`/api/o/${base()}`)).json());
    const [entry] = activityPageSchema.parse(
      await (await owner.api(`/api/o/activity/${base()}`)).json(),
    ).items;
    const requests: Promise<Response>[] = [
      api(`/api/o/users/${base()}`),
      api(`/api/o/activity/${base()}`),
      api(`/api/o/activity/${base()}/${entry?.id ?? ""}`),
      api(`/api/o/invitations/${base()}`),
      api(blockPath(otherSub)),
      block(api, otherSub, "identity"),
      unblock(api, otherSub),
      postJson(api, `/api/o/invite/${base()}`, { identityId: owner.identityId, role: "member" }),
      postJson(api, `/api/o/withdraw/${base()}/1111111111111111111111`, {}),
      postJson(api, `/api/o/update/${base()}`, {
        version: current.version,
        name: "Taken over",
        description: current.description,
        admins: current.admins,
        applications: (current.applications ?? []).map(({ id, active, values }) => ({ id, active, values })),
      }),
    ];
    return Promise.all(requests.map(async (request) => errorOf(await request)));
  }

  /** What the caller reads of the organization where admins read more than others. */
  async function adminReads(api: ConsoleApi, otherSub: string) {
    const read = organizationSchema.parse(await (await api(`/api/o/${base()}`)).json());
    const listed = documentListSchema
      .parse(await (await api("/api/o")).json())
      .find((summary) => summary.id === base());
    const appAnswer = (await (await api(`/api/o/app/${base()}/${app.applicationId}`)).json()) as {
      clients?: unknown;
    };
    return {
      canUpdate: read.canUpdate,
      admins: read.admins,
      listedCanUpdate: listed?.canUpdate,
      clients: appAnswer.clients !== undefined,
      otherIdentity: (await api(`/api/o/identity/${base()}/${otherSub}`)).status,
      otherStatus: (await api(`/api/o/blocked/${base()}/${otherSub}`)).status,
    };
  }

  const bystander = async (username: string) =>
    (await signInToApp(server.url, app, username)).tokens.claims()?.sub ?? "";

  it("a blocked admin is no admin there, cannot lift the block, and is one again once another admin lifts it", async () => {
    const mara = await memberAdmin("mara");
    const other = await bystander("nejc");
    expect((await adminAnswers(mara.api, other)).map((answer) => answer.status)).not.toContain(403);

    expect((await block(owner.api, mara.sub, "identity")).status).toBe(200);
    expect(await errorOf(await unblock(mara.api, mara.sub))).toEqual({ status: 403, error: "adminBlocked" });
    for (const answer of await adminAnswers(mara.api, other))
      expect(answer).toEqual({ status: 403, error: "adminBlocked" });
    expect(await adminReads(mara.api, other)).toEqual({
      canUpdate: false,
      admins: undefined,
      listedCanUpdate: false,
      clients: false,
      otherIdentity: 404,
      otherStatus: 404,
    });
    // Still told of their own block, as the person it binds, without the admins' note.
    const own = (await (await mara.api(`/api/o/blocked/${base()}/${mara.sub}`)).json()) as object;
    expect(own).toMatchObject({ blocked: true });
    expect(own).not.toHaveProperty("adminNote");

    expect((await unblock(owner.api, mara.sub)).status).toBe(200);
    expect((await mara.api(`/api/o/users/${base()}`)).status).toBe(200);
    expect(await adminReads(mara.api, other)).toMatchObject({ canUpdate: true, clients: true });
  });

  it("an account-wide block binds the account's other admin identities too", async () => {
    const vid = await memberAdmin("vid");
    const second = await secondAdmin(vid, "vid-two");
    const other = await bystander("zoja");

    expect((await block(owner.api, vid.sub, "identityAndAccounts")).status).toBe(200);
    for (const api of [vid.api, second.api]) {
      expect(await errorOf(await unblock(api, vid.sub))).toEqual({ status: 403, error: "adminBlocked" });
      for (const answer of await adminAnswers(api, other))
        expect(answer).toEqual({ status: 403, error: "adminBlocked" });
      expect(await adminReads(api, other)).toMatchObject({ canUpdate: false, clients: false });
    }
    expect((await unblock(owner.api, vid.sub)).status).toBe(200);
    expect((await second.api(`/api/o/users/${base()}`)).status).toBe(200);
  });

  it("an admin cannot lift the block of another identity of theirs, which the block does not bind", async () => {
    const lea = await memberAdmin("lea");
    const second = await secondAdmin(lea, "lea-two");
    expect((await block(owner.api, lea.sub, "identity")).status).toBe(200);
    // The other identity remains an admin, but the block is its person's own.
    expect((await second.api(`/api/o/users/${base()}`)).status).toBe(200);
    expect(await errorOf(await unblock(second.api, lea.sub))).toEqual({ status: 403, error: "unblockSelf" });
    const page = (await (await owner.api(blockPath(lea.sub))).json()) as { block: unknown };
    expect(page.block).not.toBeNull();
    expect((await unblock(owner.api, lea.sub)).status).toBe(200);
  });

  it("nor can an admin the blocked identity is shared with", async () => {
    const eva = await memberAdmin("eva");
    const rok = await consoleSignUp(server.url, "rok");
    expect((await accept(rok.api, rok.identityId, await invite(rok.identityId, "admin"))).status).toBe(200);
    const identity = (await (await eva.api(`/api/i/${eva.identityId}`)).json()) as { version: number };
    const shared = await postJson(eva.api, `/api/i/update/${eva.identityId}`, {
      version: identity.version,
      admins: [{ id: eva.identityId }, { person: "rok" }],
    });
    expect(shared.status).toBe(200);

    expect((await block(owner.api, eva.sub, "identity")).status).toBe(200);
    expect(await errorOf(await unblock(rok.api, eva.sub))).toEqual({ status: 403, error: "unblockSelf" });
    expect((await unblock(owner.api, eva.sub)).status).toBe(200);
  });

  it("a block made after an invitation refuses its acceptance, in either role, until it is lifted", async () => {
    const signedIn = await signInToApp(server.url, app, "tina");
    const tina = await consoleSignUp(server.url, "tina", signedIn.identityId);
    const sub = signedIn.tokens.claims()?.sub ?? "";
    const asAdmin = await invite(tina.identityId, "admin");
    // A new identity of the same account, invited to join as a member.
    const { id: fresh } = (await (
      await postJson(tina.api, "/api/i/create", { username: "tina-two" })
    ).json()) as { id: string };
    const asMember = await invite(fresh, "member");

    expect((await block(owner.api, sub, "identityAndAccounts")).status).toBe(200);
    expect(await errorOf(await accept(tina.api, tina.identityId, asAdmin))).toEqual({
      status: 403,
      error: "identityBlocked",
    });
    expect(await errorOf(await accept(tina.api, fresh, asMember))).toEqual({
      status: 403,
      error: "identityBlocked",
    });
    const admins = organizationSchema.parse(await (await owner.api(`/api/o/${base()}`)).json()).admins;
    expect(admins).not.toContain(tina.identityId);
    const members = (await (await owner.api(`/api/o/users/${base()}?q=tina-two`)).json()) as {
      items: unknown[];
    };
    expect(members.items).toEqual([]);
    // The invitations wait for the block to be lifted.
    expect((await pending(tina.api, tina.identityId)).map((item) => item.id)).toEqual([asAdmin]);

    expect((await unblock(owner.api, sub)).status).toBe(200);
    expect((await accept(tina.api, tina.identityId, asAdmin)).status).toBe(200);
    expect((await accept(tina.api, fresh, asMember)).status).toBe(200);
  });

  it("a block that lands while an invitation is accepted binds whichever comes first", async () => {
    for (const username of ["ula", "uros", "urska"]) {
      const signedIn = await signInToApp(server.url, app, username);
      const person = await consoleSignUp(server.url, username, signedIn.identityId);
      const sub = signedIn.tokens.claims()?.sub ?? "";
      const invitation = await invite(person.identityId, "admin");
      const [accepted, blocked] = await Promise.all([
        accept(person.api, person.identityId, invitation),
        block(owner.api, sub, "identityAndAccounts"),
      ]);
      expect(blocked.status).toBe(200);
      const answer = await errorOf(accepted);
      if (answer.status !== 200) expect(answer).toEqual({ status: 403, error: "identityBlocked" });
      // Accepted first or refused, the person is no admin of the organization while blocked.
      const refused = await errorOf(await person.api(`/api/o/users/${base()}`));
      expect(refused).toEqual({ status: 403, error: answer.status === 200 ? "adminBlocked" : "forbidden" });
      expect((await unblock(person.api, sub)).status).toBe(403);
      expect((await unblock(owner.api, sub)).status).toBe(200);
    }
  });
});
