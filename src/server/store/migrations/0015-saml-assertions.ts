import type { Kysely } from "kysely";

/** SAML assertions already accepted, each kept until it expires so that it is accepted once. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("saml_assertions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("saml_assertions_expires_at")
    .on("saml_assertions")
    .column("expires_at")
    .execute();
}
