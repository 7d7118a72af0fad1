import type { Kysely } from "kysely";

/**
 * Invitations of identities to organizations, pending until the identity's admins accept or decline
 * them or they expire. One pending invitation per organization, identity and role.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("organization_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("invited_by_identity_id", "text", (c) => c.notNull())
    .addColumn("invited_by_account_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("organization_invitations_one_pending", ["organization_id", "identity_id", "role"])
    .execute();
  await db.schema
    .createIndex("organization_invitations_identity")
    .on("organization_invitations")
    .column("identity_id")
    .execute();
  await db.schema
    .createIndex("organization_invitations_expires_at")
    .on("organization_invitations")
    .column("expires_at")
    .execute();
}
