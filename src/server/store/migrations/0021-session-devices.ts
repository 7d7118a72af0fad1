import type { Kysely } from "kysely";

/**
 * The browsers where each account is signed in: for each single sign-on session (by the keyed hash its
 * artifact is stored under), the browser's user agent and when it signed in and was last used. The
 * account page lists them by an opaque ID of their own, which no cookie can be made from. No address
 * is kept: the user agent and the times are what the person recognizes a browser by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("session_devices")
    .addColumn("session_key", "text", (c) => c.primaryKey())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("user_agent", "text", (c) => c.notNull())
    .addColumn("signed_in_at", "bigint", (c) => c.notNull())
    .addColumn("last_active_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("session_devices_account").on("session_devices").column("account_id").execute();
}
