import type { Database } from "./database.ts";

export interface EmailVerification {
  id: string;
  accountId: string;
  addressKey: string;
  address: string;
  codeHash: string;
  createdAt: number;
  expiresAt: number;
}

const columns = [
  "id",
  "account_id",
  "address_key",
  "address",
  "code_hash",
  "created_at",
  "expires_at",
] as const;

function toVerification(row: {
  id: string;
  account_id: string;
  address_key: string;
  address: string;
  code_hash: string;
  created_at: number | string;
  expires_at: number | string;
}): EmailVerification {
  return {
    id: row.id,
    accountId: row.account_id,
    addressKey: row.address_key,
    address: row.address,
    codeHash: row.code_hash,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * Stores the verification in place of the account's earlier one for the same address (whose code
 * stops working): one pending verification per account and address.
 */
export async function replaceEmailVerification(db: Database, verification: EmailVerification): Promise<void> {
  await db
    .insertInto("email_verifications")
    .values({
      id: verification.id,
      account_id: verification.accountId,
      address_key: verification.addressKey,
      address: verification.address,
      code_hash: verification.codeHash,
      created_at: verification.createdAt,
      expires_at: verification.expiresAt,
    })
    .onConflict((conflict) =>
      conflict.columns(["account_id", "address_key"]).doUpdateSet({
        id: verification.id,
        address: verification.address,
        code_hash: verification.codeHash,
        created_at: verification.createdAt,
        expires_at: verification.expiresAt,
      }),
    )
    .execute();
}

/** The account's verifications that have not expired, oldest first. */
export async function pendingEmailVerifications(
  db: Database,
  accountId: string,
  now: number,
): Promise<EmailVerification[]> {
  const rows = await db
    .selectFrom("email_verifications")
    .select(columns)
    .where("account_id", "=", accountId)
    .where("expires_at", ">", now)
    .orderBy("created_at")
    .execute();
  return rows.map(toVerification);
}

/** The account's verification of this ID, if it has not expired. */
export async function findEmailVerification(
  db: Database,
  accountId: string,
  id: string,
  now: number,
): Promise<EmailVerification | undefined> {
  const row = await db
    .selectFrom("email_verifications")
    .select(columns)
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row && toVerification(row);
}

/**
 * Takes the verification out of the store: of requests sent at once with its right code, only the
 * one whose statement deletes the row goes on. True when this one did.
 */
export async function takeEmailVerification(db: Database, accountId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("email_verifications")
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteEmailVerification(db: Database, accountId: string, id: string): Promise<void> {
  await takeEmailVerification(db, accountId, id);
}

export async function deleteExpiredEmailVerifications(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("email_verifications").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
