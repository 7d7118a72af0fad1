import type { Kysely } from "kysely";

/**
 * The accounts an identity is shared with, by role, for reverse lookups: which identities an account
 * may use or administer because their admins shared them with it. The identity's document holds the
 * shares; these rows follow it in the same transaction, as `identity_members` do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("identity_shares")
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("identity_shares_pk", ["identity_id", "account_id"])
    .execute();
  await db.schema.createIndex("identity_shares_account").on("identity_shares").column("account_id").execute();
}
