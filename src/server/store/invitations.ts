import type { InvitationRole } from "../../common/api/invitation.ts";
import type { Database } from "./database.ts";

export interface InvitationRow {
  id: string;
  organizationId: string;
  identityId: string;
  role: InvitationRole;
  invitedByIdentityId: string;
  invitedByAccountId: string;
  createdAt: number;
  expiresAt: number;
}

const columns = [
  "id",
  "organization_id",
  "identity_id",
  "role",
  "invited_by_identity_id",
  "invited_by_account_id",
  "created_at",
  "expires_at",
] as const;

const toInvitation = (row: {
  id: string;
  organization_id: string;
  identity_id: string;
  role: string;
  invited_by_identity_id: string;
  invited_by_account_id: string;
  created_at: number;
  expires_at: number;
}): InvitationRow => ({
  id: row.id,
  organizationId: row.organization_id,
  identityId: row.identity_id,
  role: row.role as InvitationRole,
  invitedByIdentityId: row.invited_by_identity_id,
  invitedByAccountId: row.invited_by_account_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/**
 * Stores the invitation unless one for the same organization, identity and role is still pending (an
 * expired one makes room); false when one is.
 */
export async function insertInvitation(db: Database, invitation: InvitationRow): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("organization_invitations")
      .where("organization_id", "=", invitation.organizationId)
      .where("identity_id", "=", invitation.identityId)
      .where("role", "=", invitation.role)
      .where("expires_at", "<=", invitation.createdAt)
      .execute();
    const result = await trx
      .insertInto("organization_invitations")
      .values({
        id: invitation.id,
        organization_id: invitation.organizationId,
        identity_id: invitation.identityId,
        role: invitation.role,
        invited_by_identity_id: invitation.invitedByIdentityId,
        invited_by_account_id: invitation.invitedByAccountId,
        created_at: invitation.createdAt,
        expires_at: invitation.expiresAt,
      })
      .onConflict((conflict) => conflict.columns(["organization_id", "identity_id", "role"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

const pending = (db: Database, now: number) =>
  db
    .selectFrom("organization_invitations")
    .select(columns)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .orderBy("id");

/** The organization's invitations still pending at `now`, newest first. */
export async function invitationsOfOrganization(
  db: Database,
  organizationId: string,
  now: number,
): Promise<InvitationRow[]> {
  return (await pending(db, now).where("organization_id", "=", organizationId).execute()).map(toInvitation);
}

/** The invitations to the identity still pending at `now`, newest first. */
export async function invitationsToIdentity(
  db: Database,
  identityId: string,
  now: number,
): Promise<InvitationRow[]> {
  return (await pending(db, now).where("identity_id", "=", identityId).execute()).map(toInvitation);
}

export async function findInvitation(db: Database, id: string): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom("organization_invitations")
    .select(columns)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/** Deletes the invitation; false when it was already gone, so that only one answer to it counts. */
export async function deleteInvitation(db: Database, id: string): Promise<boolean> {
  const result = await db.deleteFrom("organization_invitations").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteExpiredInvitations(db: Database, now: number): Promise<number> {
  const result = await db
    .deleteFrom("organization_invitations")
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
