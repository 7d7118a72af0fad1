import type { InvitationRole } from "../../common/api/invitation.ts";
import { inTransaction, type Database } from "./database.ts";
import type { OrganizationInvitationTable } from "./schema.ts";

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

const toInvitation = (row: OrganizationInvitationTable): InvitationRow => ({
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
  return inTransaction(db, async (trx) => {
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

/** The invitations of an organization, or to an identity, still pending at `now`, newest first. */
export async function pendingInvitations(
  db: Database,
  of: "organization_id" | "identity_id",
  id: string,
  now: number,
): Promise<InvitationRow[]> {
  const rows = await db
    .selectFrom("organization_invitations")
    .selectAll()
    .where(of, "=", id)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toInvitation);
}

export async function findInvitation(db: Database, id: string): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom("organization_invitations")
    .selectAll()
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
