import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema } from "../src/common/api/identity.ts";
import {
  identityInvitationListSchema,
  organizationInvitationListSchema,
  organizationInvitationSchema,
  type InvitationRole,
} from "../src/common/api/invitation.ts";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Neither side of an organization binds the other alone: admins invite identities, as admins or as
// members, and only the acceptance of the invited identity's admins changes the organization.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("invitations on $name", ({ url }) => {
  let server: TestServer;
  let owner: Person;
  let invitee: Person;
  let stranger: Person;
  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "olga");
    invitee = await consoleSignUp(server.url, "pavel");
    stranger = await consoleSignUp(server.url, "rok");
  });
  afterAll(() => server.dispose());

  async function createOrganization(name: string): Promise<Organization> {
    const { id } = (await (await postJson(owner.api, "/api/o/create", { name })).json()) as { id: string };
    return read(owner.api, id);
  }
  const read = async (api: ConsoleApi, id: string) =>
    organizationSchema.parse(await (await api(`/api/o/${id}`)).json());
  const updateAdmins = (api: ConsoleApi, organization: Organization, admins: string[]) =>
    postJson(api, `/api/o/update/${organization.id}`, {
      version: organization.version,
      name: organization.name,
      description: organization.description,
      admins,
      applications: [],
    });
  const invite = (api: ConsoleApi, organization: Organization, identityId: string, role: InvitationRole) =>
    postJson(api, `/api/o/invite/${organization.id}`, { identityId, role });
  const invitationTo = async (person: Person, organization: Organization, role: InvitationRole) => {
    const response = await invite(owner.api, organization, person.identityId, role);
    expect(response.status).toBe(201);
    return organizationInvitationSchema.parse(await response.json());
  };
  const pending = async (person: Person) =>
    identityInvitationListSchema.parse(
      await (await person.api(`/api/i/invitations/${person.identityId}`)).json(),
    );
  const respond = (api: ConsoleApi, identityId: string, invitationId: string, answer: "accept" | "decline") =>
    postJson(api, `/api/i/${answer}/${identityId}/${invitationId}`, {});
  const latestActivity = async (person: Person) =>
    activityPageSchema.parse(await (await person.api("/api/activity")).json()).items[0];

  it("an admin cannot make another person's identity an admin, and an identity cannot join by itself", async () => {
    const organization = await createOrganization("Direct");
    const direct = await updateAdmins(owner.api, organization, [owner.identityId, invitee.identityId]);
    expect(direct.status).toBe(403);
    expect(await direct.json()).toMatchObject({ error: "adminByInvitation" });
    expect((await read(owner.api, organization.id)).admins).toEqual([owner.identityId]);

    const identity = identitySchema.parse(await (await invitee.api(`/api/i/${invitee.identityId}`)).json());
    const join = await postJson(invitee.api, `/api/i/update/${invitee.identityId}`, {
      version: identity.version,
      username: identity.username,
      organizations: [{ organizationId: organization.id, active: true }],
    });
    expect(join.status).toBe(403);
    expect(await join.json()).toMatchObject({ error: "joinByInvitation" });
    const after = identitySchema.parse(await (await invitee.api(`/api/i/${invitee.identityId}`)).json());
    expect(after).toMatchObject({ version: identity.version, organizations: identity.organizations });
  });

  it("refuses an identity ID no identity can have, with the field named", async () => {
    const organization = await createOrganization("Malformed invitations");
    for (const identityId of ["a\u0000b", "\ud800", "x".repeat(65)]) {
      const response = await invite(owner.api, organization, identityId, "member");
      expect(response.status, JSON.stringify(identityId)).toBe(400);
      expect(await response.json()).toMatchObject({ error: "badRequest", field: "identityId" });
    }
    const unknown = await invite(owner.api, organization, "1111111111111111111111", "member");
    expect(await unknown.json()).toMatchObject({ error: "unknownIdentity", field: "identityId" });
  });

  it("an admin invitation takes effect only when the invited identity's admins accept it", async () => {
    const organization = await createOrganization("Admins wanted");
    const invitation = await invitationTo(invitee, organization, "admin");
    expect(invitation).toMatchObject({
      identityId: invitee.identityId,
      role: "admin",
      invitedBy: owner.identityId,
    });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 24 * 3600 * 1000);
    expect((await read(owner.api, organization.id)).admins).toEqual([owner.identityId]);
    expect(await invite(owner.api, organization, invitee.identityId, "admin")).toMatchObject({ status: 409 });

    const listed = organizationInvitationListSchema.parse(
      await (await owner.api(`/api/o/invitations/${organization.id}`)).json(),
    );
    expect(listed.map((item) => item.id)).toEqual([invitation.id]);
    expect(await pending(invitee)).toEqual([
      expect.objectContaining({ id: invitation.id, organizationName: "Admins wanted", role: "admin" }),
    ]);

    // Neither a stranger nor the inviting admin can see or answer it for the invited identity.
    expect((await stranger.api(`/api/i/invitations/${invitee.identityId}`)).status).toBe(404);
    for (const other of [stranger, owner]) {
      expect((await respond(other.api, invitee.identityId, invitation.id, "accept")).status).toBe(404);
      expect((await respond(other.api, other.identityId, invitation.id, "accept")).status).toBe(404);
    }
    expect((await stranger.api(`/api/o/invitations/${organization.id}`)).status).toBe(403);
    expect((await invite(stranger.api, organization, stranger.identityId, "admin")).status).toBe(403);

    const accepted = await respond(invitee.api, invitee.identityId, invitation.id, "accept");
    expect(accepted.status).toBe(200);
    expect(identityInvitationListSchema.parse(await accepted.json())).toEqual([]);
    expect((await read(owner.api, organization.id)).admins).toEqual([owner.identityId, invitee.identityId]);
    expect(await read(invitee.api, organization.id)).toMatchObject({ canUpdate: true });
    expect((await respond(invitee.api, invitee.identityId, invitation.id, "accept")).status).toBe(404);
    const again = await invite(owner.api, organization, invitee.identityId, "admin");
    expect(await again.json()).toMatchObject({ error: "alreadyJoined" });

    const recorded = {
      type: "organizationUpdate",
      organizations: [{ id: organization.id, name: "Admins wanted" }],
      changes: [{ kind: "permissionsAdded", identities: [{ id: invitee.identityId }] }],
    };
    expect(await latestActivity(invitee)).toMatchObject(recorded);
    expect(await latestActivity(owner)).toMatchObject(recorded);
    // The invitee's own identity is named to the invitee; to the owner, it is another person's, and an
    // admin who is no member of the organization is not shown to its other admins by name.
    expect((await latestActivity(invitee))?.changes?.[0]?.identities?.[0]?.name).toBe("pavel");
    expect((await latestActivity(owner))?.changes?.[0]?.identities).toEqual([{ id: invitee.identityId }]);

    // Once an admin, the identity can be removed again by an update, as admins always could.
    const removed = await updateAdmins(owner.api, await read(owner.api, organization.id), [owner.identityId]);
    expect(removed.status).toBe(200);
    expect((await read(owner.api, organization.id)).admins).toEqual([owner.identityId]);
  });

  it("a member invitation joins the identity, under an ID of the organization's own, when it is accepted", async () => {
    const organization = await createOrganization("Members wanted");
    const invitation = await invitationTo(invitee, organization, "member");
    const memberships = async () =>
      identitySchema
        .parse(await (await invitee.api(`/api/i/${invitee.identityId}`)).json())
        .organizations?.filter((membership) => membership.organizationId === organization.id);
    expect(await memberships()).toEqual([]);

    expect((await respond(invitee.api, invitee.identityId, invitation.id, "accept")).status).toBe(200);
    const [membership] = (await memberships()) ?? [];
    expect(membership).toMatchObject({ active: true });
    expect(membership?.id).not.toBe(invitee.identityId);
    const seen = await owner.api(`/api/o/identity/${organization.id}/${membership?.id ?? ""}`);
    expect(await seen.json()).toMatchObject({ id: membership?.id, username: "pavel" });
    expect((await read(owner.api, organization.id)).admins).toEqual([owner.identityId]);

    expect(await latestActivity(invitee)).toMatchObject({
      type: "identityUpdate",
      identities: [{ id: invitee.identityId, name: "pavel" }],
      changes: [
        { kind: "membershipAdded", organizations: [{ id: organization.id, name: "Members wanted" }] },
      ],
    });
    // The organization's admin sees the new member by name, as the organization sees it: by its ID there.
    expect(await latestActivity(owner)).toMatchObject({
      type: "organizationUpdate",
      organizations: [{ id: organization.id }],
      changes: [
        {
          kind: "identitiesAdded",
          identities: [
            {
              id: membership?.id,
              name: "pavel",
              path: `/o/identity/${organization.id}/${membership?.id ?? ""}`,
            },
          ],
        },
      ],
    });
  });

  it("a declined or withdrawn invitation changes nothing and cannot be accepted", async () => {
    const organization = await createOrganization("Declined");
    const declined = await invitationTo(invitee, organization, "admin");
    const answer = await respond(invitee.api, invitee.identityId, declined.id, "decline");
    expect(identityInvitationListSchema.parse(await answer.json())).toEqual([]);
    expect((await respond(invitee.api, invitee.identityId, declined.id, "accept")).status).toBe(404);

    const withdrawn = await invitationTo(invitee, organization, "member");
    const left = await postJson(owner.api, `/api/o/withdraw/${organization.id}/${withdrawn.id}`, {});
    expect(organizationInvitationListSchema.parse(await left.json())).toEqual([]);
    expect((await respond(invitee.api, invitee.identityId, withdrawn.id, "accept")).status).toBe(404);

    expect((await read(owner.api, organization.id)).admins).toEqual([owner.identityId]);
    expect(await invite(owner.api, organization, "no-such-identity", "member")).toMatchObject({
      status: 400,
    });
  });

  it("an expired invitation cannot be accepted and makes room for a new one", async () => {
    const organization = await createOrganization("Late");
    const invitation = await invitationTo(invitee, organization, "member");
    await server.db
      .updateTable("organization_invitations")
      .set({ expires_at: Date.now() - 1 })
      .where("id", "=", invitation.id)
      .execute();
    expect(await pending(invitee)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ id: invitation.id })]),
    );
    const late = await respond(invitee.api, invitee.identityId, invitation.id, "accept");
    expect(late.status).toBe(410);
    expect(await late.json()).toMatchObject({ error: "invitationExpired" });
    await invitationTo(invitee, organization, "member");
  });

  it("an invitation from an admin who was removed since is no longer valid", async () => {
    const organization = await createOrganization("Changed hands");
    const adminInvitation = await invitationTo(invitee, organization, "admin");
    await respond(invitee.api, invitee.identityId, adminInvitation.id, "accept");
    const fromInvitee = await invite(invitee.api, organization, stranger.identityId, "member");
    const { id } = organizationInvitationSchema.parse(await fromInvitee.json());
    await updateAdmins(owner.api, await read(owner.api, organization.id), [owner.identityId]);

    const answer = await respond(stranger.api, stranger.identityId, id, "accept");
    expect(answer.status).toBe(410);
    expect(await answer.json()).toMatchObject({ error: "invitationWithdrawn" });
    expect(await pending(stranger)).toEqual([]);
  });
});
