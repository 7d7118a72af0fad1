import type { InvitationRole } from "../../common/api/invitation.ts";
import { recordActivity } from "../activity/activity.ts";
import { accessibleIdentities } from "../access/identities.ts";
import { HttpError } from "../http/errors.ts";
import { joinOrganization } from "../identities/memberships.ts";
import { addAdmin, findOrganization } from "../organizations/organizations.ts";
import { isBlocked } from "../store/blocks.ts";
import type { Database } from "../store/database.ts";

// What accepting an invitation does, whichever way it came (to an identity, or by e-mail): the same
// rules, inside the transaction that takes the invitation.

/** What an invitation grants, and who made it. */
export interface Granted {
  organizationId: string;
  role: InvitationRole;
  invitedByIdentityId: string;
  invitedByAccountId: string;
}

/** Invitations are answered by the identity's admins; people who may only use it do not see them. */
export async function requireIdentityAdmin(
  db: Database,
  accountId: string,
  identityId: string,
): Promise<void> {
  const access = (await accessibleIdentities(db, accountId)).get(identityId);
  if (!access) throw new HttpError(404, "notFound", "no such identity");
  if (access !== "admin") {
    throw new HttpError(403, "forbidden", "only admins of an identity answer its invitations");
  }
}

/** An admin removed since inviting no longer speaks for the organization. */
export async function inviterStillAdmin(db: Database, invitation: Granted): Promise<boolean> {
  const organization = await findOrganization(db, invitation.organizationId);
  return organization?.document.admins.includes(invitation.invitedByIdentityId) ?? false;
}

/**
 * Makes the identity what the invitation offers, and tells the organization's side; false when the
 * identity is that already. Run inside the accepting transaction.
 */
export async function grant(
  trx: Database,
  accountId: string,
  identityId: string,
  { organizationId, role, invitedByAccountId }: Granted,
): Promise<boolean> {
  // A block binds in every role: the blocked join or administer the organization no more than they
  // sign in to it.
  if (await isBlocked(trx, organizationId, identityId, accountId))
    throw new HttpError(403, "identityBlocked", "the identity or account is blocked in this organization");
  const changed =
    role === "admin"
      ? await addAdmin(trx, organizationId, identityId)
      : (await joinOrganization(trx, accountId, identityId, organizationId)).created;
  if (!changed) return false;
  // The organization's side: the admin who invited sees the acceptance, as does a new admin.
  // A new member's joining is in the organization's activity already; a new admin's is added once.
  const accounts = new Set([invitedByAccountId, ...(role === "admin" ? [accountId] : [])]);
  let toldOrganization = role !== "admin";
  for (const account of accounts) {
    await recordActivity(
      trx,
      account,
      {
        type: "organizationUpdate",
        organizations: [{ id: organizationId }],
        changes: [
          {
            kind: role === "admin" ? "permissionsAdded" : "identitiesAdded",
            identities: [{ id: identityId }],
          },
        ],
      },
      toldOrganization ? [] : [{ organizationId }],
    );
    toldOrganization = true;
  }
  return true;
}
