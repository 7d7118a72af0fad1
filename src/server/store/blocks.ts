import type { BlockScope } from "../../common/api/block.ts";
import { inTransaction, type Database } from "./database.ts";
import { isUniqueViolation } from "./errors.ts";
import { preparedQuery } from "./prepared.ts";
import type { BlockTable } from "./schema.ts";

export interface BlockRow {
  id: string;
  organizationId: string;
  /** The organization-scoped identity ID. */
  membershipId: string;
  identityId: string;
  scope: BlockScope;
  adminNote: string;
  userNote: string;
  blockedBy: string;
  createdAt: number;
  liftedAt: number | null;
  liftedBy: string | null;
}

const toBlock = (row: BlockTable): BlockRow => ({
  id: row.id,
  organizationId: row.organization_id,
  membershipId: row.membership_id,
  identityId: row.identity_id,
  scope: row.scope as BlockScope,
  adminNote: row.admin_note,
  userNote: row.user_note,
  blockedBy: row.blocked_by_identity_id,
  createdAt: row.created_at,
  liftedAt: row.lifted_at,
  liftedBy: row.lifted_by_identity_id,
});

/**
 * Stores a block in force with the accounts it covers; false when the identity is already blocked in
 * the organization (also when another admin's block was stored a moment earlier).
 */
export async function insertBlock(
  db: Database,
  block: Omit<BlockRow, "liftedAt" | "liftedBy">,
  accountIds: readonly string[],
): Promise<boolean> {
  try {
    await inTransaction(db, async (trx) => {
      await trx
        .insertInto("blocks")
        .values({
          id: block.id,
          organization_id: block.organizationId,
          membership_id: block.membershipId,
          identity_id: block.identityId,
          scope: block.scope,
          admin_note: block.adminNote,
          user_note: block.userNote,
          blocked_by_identity_id: block.blockedBy,
          created_at: block.createdAt,
          lifted_at: null,
          lifted_by_identity_id: null,
        })
        .execute();
      if (accountIds.length > 0) {
        await trx
          .insertInto("block_accounts")
          .values(accountIds.map((accountId) => ({ block_id: block.id, account_id: accountId })))
          .execute();
      }
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The block of the identity in force in the organization, if any. */
export async function findBlockInForce(
  db: Database,
  organizationId: string,
  identityId: string,
): Promise<BlockRow | undefined> {
  const row = await db
    .selectFrom("blocks")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("identity_id", "=", identityId)
    .where("lifted_at", "is", null)
    .executeTakeFirst();
  return row && toBlock(row);
}

/** Lifts the block; false when it was no longer in force (lifted by someone else meanwhile). */
export async function liftBlock(db: Database, id: string, by: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable("blocks")
    .set({ lifted_at: now, lifted_by_identity_id: by })
    .where("id", "=", id)
    .where("lifted_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The accounts a block covers (none for a block of the identity only). */
export async function accountsOfBlock(db: Database, blockId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("block_accounts")
    .select("account_id")
    .where("block_id", "=", blockId)
    .execute();
  return rows.map((row) => row.account_id);
}

/** The blocks in force of these identities in the organization. */
export async function blocksOfIdentities(
  db: Database,
  organizationId: string,
  identityIds: readonly string[],
): Promise<BlockRow[]> {
  if (identityIds.length === 0) return [];
  const rows = await db
    .selectFrom("blocks")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("identity_id", "in", identityIds)
    .where("lifted_at", "is", null)
    .execute();
  return rows.map(toBlock);
}

/** The blocks in force in an organization that cover this account, oldest first, to select from. */
export const accountBlocks = (db: Database, organizationId: string, accountId: string) =>
  db
    .selectFrom("blocks")
    .innerJoin("block_accounts", "block_accounts.block_id", "blocks.id")
    .where("blocks.organization_id", "=", organizationId)
    .where("block_accounts.account_id", "=", accountId)
    .where("blocks.lifted_at", "is", null)
    .orderBy("blocks.created_at");

/** The blocks in force in an organization that cover this account, oldest first. */
export async function blocksOfAccount(
  db: Database,
  organizationId: string,
  accountId: string,
): Promise<BlockRow[]> {
  const rows = await accountBlocks(db, organizationId, accountId).selectAll("blocks").execute();
  return rows.map(toBlock);
}

/** The blocks in force in the organization that bind the identity, used by this account. */
export const bindingBlocks = (db: Database, organizationId: string, identityId: string, accountId: string) =>
  db
    .selectFrom("blocks")
    .select("blocks.id")
    .where("blocks.organization_id", "=", organizationId)
    .where("blocks.lifted_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("blocks.identity_id", "=", identityId),
        eb(
          "blocks.id",
          "in",
          eb
            .selectFrom("block_accounts")
            .select("block_accounts.block_id")
            .where("block_accounts.account_id", "=", accountId),
        ),
      ]),
    );

const blockedQuery = preparedQuery(
  (db: Database, organizationId: string, identityId: string, accountId: string) =>
    bindingBlocks(db, organizationId, identityId, accountId).limit(1),
);

/**
 * Whether the identity, used by this account, is blocked in the organization. Without an identity
 * (none chosen yet) only blocks of the account count, and without an account only those of the identity.
 */
export async function isBlocked(
  db: Database,
  organizationId: string,
  identityId: string | undefined,
  accountId: string | undefined,
): Promise<boolean> {
  // No identity or account has an empty ID: "" matches no block.
  const { rows } = await blockedQuery(db, organizationId, identityId ?? "", accountId ?? "");
  return rows.length > 0;
}

/** The grants issued to these identities or to these accounts, in any organization. */
export async function grantsOf(
  db: Database,
  identityIds: readonly string[],
  accountIds: readonly string[],
): Promise<string[]> {
  if (identityIds.length === 0 && accountIds.length === 0) return [];
  const rows = await db
    .selectFrom("grant_accounts")
    .select("grant_id")
    .where((eb) =>
      eb.or([
        ...(identityIds.length > 0 ? [eb("identity_id", "in", identityIds)] : []),
        ...(accountIds.length > 0 ? [eb("account_id", "in", accountIds)] : []),
      ]),
    )
    .execute();
  return rows.map((row) => row.grant_id);
}
