import { sql, type Kysely } from "kysely";

/**
 * Invitations to an organization sent to an e-mail address: the person who opens the e-mailed link,
 * signed in with any account, answers with one of their identities. The link's token is kept only as a
 * keyed hash. A row stays once answered or withdrawn, until it expires, so that its link can say
 * which of these happened (an expired one is no longer pending); one pending invitation per organization, address and role.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("address_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    // The address's lookup key, as e-mail credentials keep it, and the address as the admin typed it.
    .addColumn("address_key", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("invited_by_identity_id", "text", (c) => c.notNull())
    .addColumn("invited_by_account_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("address_invitations_one_pending")
    .on("address_invitations")
    .columns(["organization_id", "address_key", "role"])
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("address_invitations_expires_at")
    .on("address_invitations")
    .column("expires_at")
    .execute();
}
