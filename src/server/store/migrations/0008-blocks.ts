import { sql, type Kysely } from "kysely";

/**
 * Blocks of identities by organizations. A block is a record: lifting it sets `lifted_at` and keeps
 * the row. At most one block of an identity in an organization is in force at a time. A block of the
 * identity and its accounts also lists the accounts it covers, which are never shown to the admins.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("blocks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    // The organization-scoped identity ID, and the identity it stands for.
    .addColumn("membership_id", "text", (c) => c.notNull())
    .addColumn("identity_id", "text", (c) => c.notNull())
    // identity or identityAndAccounts
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("admin_note", "text", (c) => c.notNull())
    .addColumn("user_note", "text", (c) => c.notNull())
    .addColumn("blocked_by_identity_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("lifted_at", "bigint")
    .addColumn("lifted_by_identity_id", "text")
    .execute();
  // Keyed by the identity, not its organization-scoped ID: leaving the organization and joining it
  // again gives a new scoped ID but must not lift the block. Two admins blocking at once: the store keeps one block in force, the other write fails.
  await db.schema
    .createIndex("blocks_one_in_force")
    .on("blocks")
    .columns(["organization_id", "identity_id"])
    .unique()
    .where(sql.ref("lifted_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("blocks_membership")
    .on("blocks")
    .columns(["membership_id", "created_at"])
    .execute();

  await db.schema
    .createTable("block_accounts")
    .addColumn("block_id", "text", (c) => c.notNull().references("blocks.id").onDelete("cascade"))
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("block_accounts_pk", ["block_id", "account_id"])
    .execute();
  await db.schema.createIndex("block_accounts_account").on("block_accounts").column("account_id").execute();

  // A block revokes the grants of the identity and of the accounts it covers.
  await db.schema.createIndex("grant_accounts_identity").on("grant_accounts").column("identity_id").execute();
  await db.schema.createIndex("grant_accounts_account").on("grant_accounts").column("account_id").execute();
}
