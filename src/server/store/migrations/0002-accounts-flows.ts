import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("credentials")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_id", "text")
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("credentials_lookup")
    .unique()
    .on("credentials")
    .columns(["provider", "provider_id"])
    .execute();
  await db.schema.createIndex("credentials_account").on("credentials").column("account_id").execute();

  await db.schema
    .createTable("identities")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("creator_account_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("identities_creator").on("identities").column("creator_account_id").execute();

  // Who may use or administer an identity, as identities (spec §3 users and admins), for reverse lookups.
  await db.schema
    .createTable("identity_members")
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    .addColumn("member_identity_id", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("identity_members_pk", ["identity_id", "member_identity_id"])
    .execute();
  await db.schema
    .createIndex("identity_members_member")
    .on("identity_members")
    .column("member_identity_id")
    .execute();

  // An identity in an organization: `id` is the organization-scoped ID that the organization's apps see.
  await db.schema
    .createTable("identity_organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("identity_organizations_unique", ["identity_id", "organization_id"])
    .execute();

  await db.schema
    .createTable("identity_applications")
    .addColumn("membership_id", "text", (c) =>
      c.notNull().references("identity_organizations.id").onDelete("cascade"),
    )
    .addColumn("application_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("identity_applications_pk", ["membership_id", "application_id"])
    .execute();

  await db.schema
    .createTable("flows")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("application_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("flows_expires_at").on("flows").column("expires_at").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("flow_id", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();

  // Which account a grant (and so every token of it) was issued to, for the console's own APIs.
  await db.schema
    .createTable("grant_accounts")
    .addColumn("grant_id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("identity_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("activities")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("activities_account")
    .on("activities")
    .columns(["account_id", "created_at"])
    .execute();

  // Failed attempts per key (account, client address) as leaky buckets, shared by every instance.
  await db.schema
    .createTable("attempt_counters")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("level", "double precision", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}
