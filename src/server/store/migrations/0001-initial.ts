import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("instance_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("alg", "text", (c) => c.notNull())
    .addColumn("private_jwk", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("retired_at", "bigint")
    .execute();

  await db.schema
    .createTable("oidc_models")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "text")
    .addColumn("uid", "text")
    .addColumn("user_code", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("consumed_at", "bigint")
    .addPrimaryKeyConstraint("oidc_models_pk", ["model", "id"])
    .execute();
  await db.schema.createIndex("oidc_models_grant_id").on("oidc_models").column("grant_id").execute();
  await db.schema.createIndex("oidc_models_uid").on("oidc_models").columns(["model", "uid"]).execute();
  await db.schema
    .createIndex("oidc_models_user_code")
    .on("oidc_models")
    .columns(["model", "user_code"])
    .execute();
  await db.schema.createIndex("oidc_models_expires_at").on("oidc_models").column("expires_at").execute();

  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oauth_clients")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("application_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text")
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex("oauth_clients_application")
    .on("oauth_clients")
    .column("application_id")
    .execute();
}
