import type { InvitationRole } from "../../common/api/invitation.ts";
import { inTransaction, type Database } from "./database.ts";
import type { AddressInvitationTable } from "./schema.ts";

export type AddressInvitationStatus = "pending" | "accepted" | "declined" | "withdrawn" | "expired";

export interface AddressInvitationRow {
  id: string;
  organizationId: string;
  tokenHash: string;
  addressKey: string;
  address: string;
  role: InvitationRole;
  status: AddressInvitationStatus;
  invitedByIdentityId: string;
  invitedByAccountId: string;
  createdAt: number;
  expiresAt: number;
}

/** An expired invitation is kept this long, so that its link says it expired rather than nothing. */
const expiredRetentionMs = 30 * 24 * 60 * 60 * 1000;

const toRow = (row: AddressInvitationTable): AddressInvitationRow => ({
  id: row.id,
  organizationId: row.organization_id,
  tokenHash: row.token_hash,
  addressKey: row.address_key,
  address: row.address,
  role: row.role as InvitationRole,
  status: row.status as AddressInvitationStatus,
  invitedByIdentityId: row.invited_by_identity_id,
  invitedByAccountId: row.invited_by_account_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/**
 * Stores the invitation unless one for the same organization, address and role is still pending (an
 * expired one makes room); false when one is. A unique index on the pending ones decides between two
 * at once.
 */
export async function insertAddressInvitation(
  db: Database,
  invitation: AddressInvitationRow,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable("address_invitations")
      .set({ status: "expired" })
      .where("organization_id", "=", invitation.organizationId)
      .where("address_key", "=", invitation.addressKey)
      .where("role", "=", invitation.role)
      .where("status", "=", "pending")
      .where("expires_at", "<=", invitation.createdAt)
      .execute();
    const result = await trx
      .insertInto("address_invitations")
      .values({
        id: invitation.id,
        organization_id: invitation.organizationId,
        token_hash: invitation.tokenHash,
        address_key: invitation.addressKey,
        address: invitation.address,
        role: invitation.role,
        status: invitation.status,
        invited_by_identity_id: invitation.invitedByIdentityId,
        invited_by_account_id: invitation.invitedByAccountId,
        created_at: invitation.createdAt,
        expires_at: invitation.expiresAt,
      })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/** The organization's invitations by address still pending at `now`, newest first. */
export async function pendingAddressInvitations(
  db: Database,
  organizationId: string,
  now: number,
): Promise<AddressInvitationRow[]> {
  const rows = await db
    .selectFrom("address_invitations")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toRow);
}

export async function findAddressInvitationByToken(
  db: Database,
  tokenHash: string,
): Promise<AddressInvitationRow | undefined> {
  const row = await db
    .selectFrom("address_invitations")
    .selectAll()
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row && toRow(row);
}

/**
 * Moves a pending invitation, unexpired at `now`, to its answer; false when it is no longer pending,
 * so that of two answers at once only one counts.
 */
export async function settleAddressInvitation(
  db: Database,
  where: { id: string; organizationId?: string },
  status: Exclude<AddressInvitationStatus, "pending">,
  now: number,
): Promise<boolean> {
  let query = db
    .updateTable("address_invitations")
    .set({ status })
    .where("id", "=", where.id)
    .where("status", "=", "pending")
    .where("expires_at", ">", now);
  if (where.organizationId !== undefined) query = query.where("organization_id", "=", where.organizationId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteExpiredAddressInvitations(db: Database, now: number): Promise<number> {
  const result = await db
    .deleteFrom("address_invitations")
    .where("expires_at", "<=", now - expiredRetentionMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes an invitation whose e-mail could not be sent: nobody has its link. */
export async function deleteAddressInvitation(db: Database, id: string): Promise<void> {
  await db.deleteFrom("address_invitations").where("id", "=", id).execute();
}
