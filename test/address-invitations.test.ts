import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema } from "../src/common/api/identity.ts";
import {
  linkAcceptedSchema,
  linkInvitationSchema,
  organizationInvitationListSchema,
  organizationInvitationSchema,
  type InvitationRole,
} from "../src/common/api/invitation.ts";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { rateLimits } from "../src/common/limits.ts";
import {
  consoleApp,
  consoleSignUp,
  finishConsoleSignIn,
  postJson,
  type ConsoleApi,
} from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, type ReceivedMail, mailArgs } from "./support/smtp.ts";

// Admins invite by e-mail address: whoever reads the mailbox opens the link, signs in or signs up, and
// answers with an identity of their choice. Nothing tells the admin whether an account has the address.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("invitations by e-mail on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let owner: Person;
  let stranger: Person;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: mailArgs(smtp.port),
    });
    owner = await consoleSignUp(server.url, "olga");
    stranger = await consoleSignUp(server.url, "rok");
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  async function createOrganization(name: string): Promise<Organization> {
    const { id } = (await (await postJson(owner.api, "/api/o/create", { name })).json()) as { id: string };
    return organizationSchema.parse(await (await owner.api(`/api/o/${id}`)).json());
  }
  const inviteByAddress = (
    organization: Organization,
    address: string,
    role: InvitationRole,
    language = "en",
    person: Person = owner,
  ) =>
    fetch(`${server.url}/api/o/inviteByAddress/${organization.id}`, {
      method: "POST",
      body: JSON.stringify({ address, role }),
      headers: {
        authorization: `Bearer ${person.tokens.access_token}`,
        "content-type": "application/json",
        "accept-language": language,
      },
    });
  const invited = async (organization: Organization, address: string, role: InvitationRole = "member") => {
    const response = await inviteByAddress(organization, address, role);
    expect(response.status).toBe(201);
    return organizationInvitationSchema.parse(await response.json());
  };
  const pendingOf = async (organization: Organization) =>
    organizationInvitationListSchema.parse(
      await (await owner.api(`/api/o/invitations/${organization.id}`)).json(),
    );
  const received = (address: string) =>
    smtp.messages.filter((message) => message.to.some((to) => to.toLowerCase() === address));
  /** The path of the link an invitation e-mail carries. */
  const linkIn = (mail: ReceivedMail) => {
    const match = /https:\/\/\S+\/invitation\/([\w-]{43})/.exec(mail.text);
    if (!match?.[0]) throw new Error("no invitation link in the e-mail");
    return new URL(match[0]).pathname;
  };
  const open = (api: ConsoleApi, link: string) => api(`/api${link}`);
  const accept = (api: ConsoleApi, link: string, identityId: string) =>
    postJson(api, `/api${link.replace("/invitation/", "/invitation/accept/")}`, { identityId });
  const decline = (api: ConsoleApi, link: string) =>
    postJson(api, `/api${link.replace("/invitation/", "/invitation/decline/")}`, {});

  /** Signs up to the console with a code sent to the address: an account that did not exist before. */
  async function signUpByCode(address: string): Promise<Person> {
    const driver = await FlowDriver.start(server.url, await consoleApp(server.url));
    await driver.step("codeStart", { emailOrUsername: address });
    await driver.step("codeComplete", {
      code: codeIn(await smtp.waitFor(address, received(address).length)),
    });
    return finishConsoleSignIn(server.url, driver);
  }

  it("e-mails a link that a person who signs up afterwards accepts with their identity", async () => {
    const organization = await createOrganization("Mailbox Club");
    const address = "nova@example.com";
    const invitation = await invited(organization, "Nova@Example.com");
    expect(invitation).toMatchObject({
      address: "Nova@Example.com",
      role: "member",
      invitedBy: owner.identityId,
    });
    expect(invitation.identityId).toBeUndefined();
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 24 * 3600 * 1000);
    expect((await pendingOf(organization)).map((item) => item.address)).toEqual(["Nova@Example.com"]);
    expect((await stranger.api(`/api/o/invitations/${organization.id}`)).status).toBe(403);

    const mail = await smtp.waitFor(address);
    expect(mail.subject).toBe("You are invited to “Mailbox Club” on Vrata");
    expect(mail.text).toContain("olga invites you to join the organization “Mailbox Club”");
    expect(mail.text).toContain("as a member");
    const link = linkIn(mail);
    // The store keeps only the token's keyed hash: a copy of it opens no invitation.
    const stored = await server.db
      .selectFrom("address_invitations")
      .selectAll()
      .where("id", "=", invitation.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(link.split("/").at(-1));

    // Nobody opens the link without signing in.
    expect((await fetch(`${server.url}/api${link}`)).status).toBe(401);

    const nova = await signUpByCode(address);
    const shown = await open(nova.api, link);
    expect(shown.status).toBe(200);
    expect(linkInvitationSchema.parse(await shown.json())).toMatchObject({
      organizationId: organization.id,
      organizationName: "Mailbox Club",
      invitedBy: "olga",
      role: "member",
    });
    const accepted = await accept(nova.api, link, nova.identityId);
    expect(accepted.status).toBe(200);
    expect(linkAcceptedSchema.parse(await accepted.json())).toEqual({ organizationId: organization.id });
    const identity = identitySchema.parse(await (await nova.api(`/api/i/${nova.identityId}`)).json());
    expect(identity.organizations).toEqual(
      expect.arrayContaining([expect.objectContaining({ organizationId: organization.id })]),
    );
    expect(await pendingOf(organization)).toEqual([]);
    const activity = activityPageSchema.parse(await (await owner.api("/api/activity")).json());
    expect(activity.items[0]).toMatchObject({
      type: "organizationUpdate",
      organizations: [expect.objectContaining({ id: organization.id })],
      changes: [{ kind: "identitiesAdded" }],
    });

    // The link works once.
    const again = await open(nova.api, link);
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ error: "invitationUsed" });
    expect(await (await accept(nova.api, link, nova.identityId)).json()).toMatchObject({
      error: "invitationUsed",
    });
  });

  it("writes in the language the admin invited in and makes the accepting identity an admin", async () => {
    const organization = await createOrganization("Društvo");
    const address = "spela@example.com";
    expect((await inviteByAddress(organization, address, "admin", "sl")).status).toBe(201);
    const mail = await smtp.waitFor(address);
    expect(mail.subject).toBe("Vabilo v organizacijo „Društvo“ (Vrata)");
    expect(mail.text).toContain("olga vas prek Vrata vabi v organizacijo „Društvo“");
    expect(mail.text).toContain("naj postane njena skrbnica");

    const link = linkIn(mail);
    const accepted = await accept(stranger.api, link, stranger.identityId);
    expect(accepted.status).toBe(200);
    const after = organizationSchema.parse(await (await owner.api(`/api/o/${organization.id}`)).json());
    expect(after.admins).toEqual(expect.arrayContaining([owner.identityId, stranger.identityId]));
  });

  it("answers the same whether an account has the address or not, and e-mails both", async () => {
    const organization = await createOrganization("Alike");
    const known = "known@example.com";
    const unknown = "unknown@example.com";
    await signUpByCode(known);
    const before = received(known).length;
    const answerFor = async (address: string) => {
      const response = await inviteByAddress(organization, address, "member");
      const body = organizationInvitationSchema.parse(JSON.parse(await response.clone().text()));
      const text = (await response.text())
        .replaceAll(body.id, "id")
        .replaceAll(body.createdAt, "time")
        .replaceAll(body.expiresAt, "time")
        .replaceAll(address, "address");
      return { status: response.status, text, headers: [...response.headers.keys()].sort() };
    };
    expect(await answerFor(known)).toEqual(await answerFor(unknown));
    await smtp.waitFor(known, before + 1);
    const [toUnknown] = received(unknown);
    expect(toUnknown?.subject).toBe((await smtp.waitFor(known, before + 1)).subject);
  });

  it("a withdrawn link stops working, an expired one says so, and a declined one is used", async () => {
    const organization = await createOrganization("Changes of mind");
    const withdrawn = await invited(organization, "withdrawn@example.com");
    const withdrawnLink = linkIn(await smtp.waitFor("withdrawn@example.com"));
    const left = await postJson(owner.api, `/api/o/withdraw/${organization.id}/${withdrawn.id}`, {});
    expect(left.status).toBe(200);
    expect(organizationInvitationListSchema.parse(await left.json())).toEqual([]);
    for (const response of [
      await open(stranger.api, withdrawnLink),
      await accept(stranger.api, withdrawnLink, stranger.identityId),
    ]) {
      expect(response.status).toBe(410);
      expect(await response.json()).toMatchObject({ error: "invitationWithdrawn" });
    }

    const expired = await invited(organization, "late@example.com");
    const expiredLink = linkIn(await smtp.waitFor("late@example.com"));
    await server.db
      .updateTable("address_invitations")
      .set({ expires_at: Date.now() - 1 })
      .where("id", "=", expired.id)
      .execute();
    expect(await pendingOf(organization)).toEqual([]);
    const late = await accept(stranger.api, expiredLink, stranger.identityId);
    expect(late.status).toBe(410);
    expect(await late.json()).toMatchObject({ error: "invitationExpired" });
    // An expired invitation makes room for a new one to the same address.
    await invited(organization, "late@example.com");

    await invited(organization, "no-thanks@example.com");
    const declinedLink = linkIn(await smtp.waitFor("no-thanks@example.com"));
    expect((await decline(stranger.api, declinedLink)).status).toBe(200);
    expect(await (await open(stranger.api, declinedLink)).json()).toMatchObject({ error: "invitationUsed" });
    const read = organizationSchema.parse(await (await owner.api(`/api/o/${organization.id}`)).json());
    expect(read.admins).toEqual([owner.identityId]);
  });

  it("keeps the link when an acceptance is refused, so another identity can take it", async () => {
    const organization = await createOrganization("Second try");
    await invited(organization, "twice@example.com", "admin");
    const link = linkIn(await smtp.waitFor("twice@example.com"));
    // The inviting admin's own identity is an admin already.
    const refused = await accept(owner.api, link, owner.identityId);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "alreadyJoined", field: "identityId" });
    expect((await open(owner.api, link)).status).toBe(200);
    // An identity the person does not administer cannot accept.
    expect((await accept(owner.api, link, stranger.identityId)).status).toBe(404);
    expect((await accept(stranger.api, link, stranger.identityId)).status).toBe(200);
  });

  it("refuses bad input with a 4xx and a code", async () => {
    const organization = await createOrganization("Strict");
    const cases: [unknown, number, string, string?][] = [
      [{ address: "nobody@", role: "member" }, 400, "invalidEmail", "address"],
      [{ address: "no body@example.com", role: "member" }, 400, "invalidEmail", "address"],
      [{ address: "username", role: "member" }, 400, "invalidEmail", "address"],
      [{ address: "", role: "member" }, 400, "badRequest", "address"],
      [{ address: "a\u0000b@example.com", role: "member" }, 400, "badRequest", "address"],
      [{ address: "x@example.com", role: "owner" }, 400, "badRequest", "role"],
      [{ address: "x@example.com" }, 400, "badRequest", "role"],
      [{ address: "x@example.com", role: "member", extra: 1 }, 400, "badRequest"],
    ];
    for (const [body, status, error, field] of cases) {
      const response = await postJson(owner.api, `/api/o/inviteByAddress/${organization.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(await response.json()).toMatchObject({ error, ...(field ? { field } : {}) });
    }
    const notAdmin = await inviteByAddress(organization, "x@example.com", "member", "en", stranger);
    expect(notAdmin.status).toBe(403);
    await invited(organization, "once@example.com");
    const twice = await inviteByAddress(organization, "ONCE@example.com", "member");
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ error: "alreadyInvited", field: "address" });

    expect((await stranger.api("/api/invitation/short")).status).toBe(404);
    const unknown = await stranger.api(`/api/invitation/${"a".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "notFound" });
    const link = linkIn(await smtp.waitFor("once@example.com"));
    for (const body of [{}, { identityId: 5 }, { identityId: "" }, { identityId: "x", more: 1 }]) {
      const response = await postJson(
        stranger.api,
        `/api${link.replace("/invitation/", "/invitation/accept/")}`,
        body,
      );
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("sends at most the limit per address and per organization, also when asked all at once", async () => {
    const address = "popular@example.com";
    const organizations = await Promise.all(
      Array.from({ length: rateLimits.invitationsPerAddress.limit + 3 }, (_, index) =>
        createOrganization(`Crowd ${index}`),
      ),
    );
    const perAddress = await Promise.all(
      organizations.map((organization) => inviteByAddress(organization, address, "member")),
    );
    const statuses = perAddress.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(rateLimits.invitationsPerAddress.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    await smtp.waitFor(address, rateLimits.invitationsPerAddress.limit);
    expect(received(address)).toHaveLength(rateLimits.invitationsPerAddress.limit);

    const busy = await createOrganization("Busy");
    const { limit } = rateLimits.invitationsPerOrganization;
    const perOrganization = await Promise.all(
      Array.from({ length: limit + 4 }, (_, index) =>
        inviteByAddress(busy, `guest${index}@example.com`, "member"),
      ),
    );
    const refused = perOrganization.filter((response) => response.status === 429);
    expect(perOrganization.filter((response) => response.status === 201)).toHaveLength(limit);
    expect(refused).toHaveLength(4);
    expect(await refused[0]?.json()).toMatchObject({ error: "tooManyRequests" });
    expect(await pendingOf(busy)).toHaveLength(limit);
  });
});
