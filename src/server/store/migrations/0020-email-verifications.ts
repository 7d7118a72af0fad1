import type { Kysely } from "kysely";

/**
 * E-mail addresses a signed-in person is adding to their account, until the code e-mailed to the
 * address proves the mailbox is theirs. The code is kept only as a keyed hash; a row goes once its
 * code is right, once it expires, or with its account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("email_verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    // The address's lookup key, as e-mail credentials keep it, and the address as the person typed it.
    .addColumn("address_key", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("email_verifications_one_per_address")
    .on("email_verifications")
    .columns(["account_id", "address_key"])
    .unique()
    .execute();
  await db.schema
    .createIndex("email_verifications_expires_at")
    .on("email_verifications")
    .column("expires_at")
    .execute();
}
