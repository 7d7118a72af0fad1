import type { Kysely } from "kysely";

/**
 * Challenges of passkeys that signed-in accounts are adding, each usable once and for a short time
 * (the flow keeps its own in the flow's state).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("passkey_challenges")
    .addColumn("challenge", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("user_handle", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("passkey_challenges_account")
    .on("passkey_challenges")
    .column("account_id")
    .execute();
  await db.schema
    .createIndex("passkey_challenges_expires_at")
    .on("passkey_challenges")
    .column("expires_at")
    .execute();
}
