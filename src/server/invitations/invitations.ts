import type {
  IdentityInvitation,
  OrganizationInvitation,
  invitationCreateSchema,
} from "../../common/api/invitation.ts";
import type { z } from "zod/mini";
import { invitationLifetimeMs } from "../../common/limits.ts";
import type { Caller } from "../access/caller.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { administeredOrganization } from "../access/organizations.ts";
import { findOrganization } from "../organizations/organizations.ts";
import {
  pendingAddressInvitations,
  settleAddressInvitation,
  type AddressInvitationRow,
} from "../store/address-invitations.ts";
import { inTransaction, type Database } from "../store/database.ts";
import { findIdentity } from "../store/identities.ts";
import {
  deleteInvitation,
  findInvitation,
  insertInvitation,
  pendingInvitations,
  type InvitationRow,
} from "../store/invitations.ts";
import { grant, inviterStillAdmin, requireIdentityAdmin } from "./acceptance.ts";

// Organization invitations: the organization's admins invite an identity as admin or member, and the
// identity's admins accept or decline. Only an acceptance changes the organization, so neither side
// binds the other without its consent.

const iso = (time: number) => new Date(time).toISOString();

function organizationView(invitation: InvitationRow): OrganizationInvitation {
  return {
    id: invitation.id,
    identityId: invitation.identityId,
    role: invitation.role,
    invitedBy: invitation.invitedByIdentityId,
    createdAt: iso(invitation.createdAt),
    expiresAt: iso(invitation.expiresAt),
  };
}

/** An invitation by e-mail as the organization's admins see it: by the address they typed. */
export function addressInvitationView(invitation: AddressInvitationRow): OrganizationInvitation {
  return {
    id: invitation.id,
    address: invitation.address,
    role: invitation.role,
    invitedBy: invitation.invitedByIdentityId,
    createdAt: iso(invitation.createdAt),
    expiresAt: iso(invitation.expiresAt),
  };
}

export async function invite(
  db: Database,
  caller: Caller,
  organizationId: string,
  { identityId, role }: z.infer<typeof invitationCreateSchema>,
): Promise<OrganizationInvitation> {
  const { editor, stored } = await administeredOrganization(db, caller, organizationId);
  if (!(await findIdentity(db, identityId))) {
    throw new HttpError(400, "unknownIdentity", `no identity ${identityId}`, { field: "identityId" });
  }
  // Only the admin role is checked: the admins see their admins anyway, whereas saying that an identity
  // is a member would tell them which of their scoped IDs it is.
  if (role === "admin" && stored.document.admins.includes(identityId)) {
    throw new HttpError(409, "alreadyJoined", "the identity is an admin already", { field: "identityId" });
  }
  const now = Date.now();
  const invitation: InvitationRow = {
    id: newId(),
    organizationId,
    identityId,
    role,
    invitedByIdentityId: editor,
    invitedByAccountId: caller.accountId,
    createdAt: now,
    expiresAt: now + invitationLifetimeMs,
  };
  if (!(await insertInvitation(db, invitation))) {
    throw new HttpError(409, "alreadyInvited", "the identity has a pending invitation for this role", {
      field: "identityId",
    });
  }
  return organizationView(invitation);
}

export async function organizationInvitations(
  db: Database,
  caller: Caller,
  organizationId: string,
): Promise<OrganizationInvitation[]> {
  await administeredOrganization(db, caller, organizationId);
  const now = Date.now();
  const toIdentities = (await pendingInvitations(db, "organization_id", organizationId, now)).map(
    organizationView,
  );
  const byAddress = (await pendingAddressInvitations(db, organizationId, now)).map(addressInvitationView);
  return [...toIdentities, ...byAddress].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Deletes the invitation if it is one `belongs` accepts; else, or when it is gone already, a 404. */
async function deleteWhere(
  db: Database,
  invitationId: string,
  belongs: (invitation: InvitationRow) => boolean,
): Promise<void> {
  const invitation = await findInvitation(db, invitationId);
  if (!invitation || !belongs(invitation) || !(await deleteInvitation(db, invitationId))) {
    throw new HttpError(404, "notFound", "no such invitation");
  }
}

export async function withdraw(
  db: Database,
  caller: Caller,
  organizationId: string,
  invitationId: string,
): Promise<OrganizationInvitation[]> {
  await administeredOrganization(db, caller, organizationId);
  // An invitation by e-mail is kept as withdrawn, so that its link says so.
  const byAddress = await settleAddressInvitation(
    db,
    { id: invitationId, organizationId },
    "withdrawn",
    Date.now(),
  );
  if (!byAddress)
    await deleteWhere(db, invitationId, (invitation) => invitation.organizationId === organizationId);
  return organizationInvitations(db, caller, organizationId);
}

export async function identityInvitations(
  db: Database,
  accountId: string,
  identityId: string,
): Promise<IdentityInvitation[]> {
  await requireIdentityAdmin(db, accountId, identityId);
  const views: IdentityInvitation[] = [];
  for (const invitation of await pendingInvitations(db, "identity_id", identityId, Date.now())) {
    const organization = await findOrganization(db, invitation.organizationId);
    if (!organization) continue;
    views.push({
      id: invitation.id,
      organizationId: invitation.organizationId,
      organizationName: organization.document.name,
      role: invitation.role,
      createdAt: iso(invitation.createdAt),
      expiresAt: iso(invitation.expiresAt),
    });
  }
  return views;
}

/** Takes the invitation to this identity for its acceptance: deleted here, it is accepted only once. */
async function claim(db: Database, identityId: string, invitationId: string): Promise<InvitationRow> {
  const invitation = await findInvitation(db, invitationId);
  if (invitation?.identityId !== identityId) throw new HttpError(404, "notFound", "no such invitation");
  if (invitation.expiresAt <= Date.now()) {
    throw new HttpError(410, "invitationExpired", "the invitation has expired");
  }
  if (!(await inviterStillAdmin(db, invitation))) {
    throw new HttpError(410, "invitationWithdrawn", "the admin who invited is no longer one");
  }
  if (!(await deleteInvitation(db, invitationId))) {
    throw new HttpError(404, "notFound", "the invitation was answered meanwhile");
  }
  return invitation;
}

export async function accept(
  db: Database,
  accountId: string,
  identityId: string,
  invitationId: string,
): Promise<IdentityInvitation[]> {
  await requireIdentityAdmin(db, accountId, identityId);
  // Taking the invitation and what it grants are stored together: a failure keeps the invitation.
  const accepting = inTransaction(db, async (trx) => {
    const invitation = await claim(trx, identityId, invitationId);
    // The invitation stays when a block refuses it, for when the block is lifted.
    await grant(trx, accountId, identityId, invitation);
  });
  await accepting.catch(async (error: unknown) => {
    // A void invitation is removed once its refusal is told.
    if (error instanceof HttpError && error.code === "invitationWithdrawn") {
      await deleteInvitation(db, invitationId);
    }
    throw error;
  });
  return identityInvitations(db, accountId, identityId);
}

export async function decline(
  db: Database,
  accountId: string,
  identityId: string,
  invitationId: string,
): Promise<IdentityInvitation[]> {
  await requireIdentityAdmin(db, accountId, identityId);
  await deleteWhere(db, invitationId, (invitation) => invitation.identityId === identityId);
  return identityInvitations(db, accountId, identityId);
}
