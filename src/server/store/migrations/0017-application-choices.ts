import type { Kysely } from "kysely";

/**
 * The identity each person chose for each application, with the scopes they agreed to give it: single
 * sign-on answers an app from here without asking again, and an app's `sub` is that identity's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("application_choices")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("application_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("membership_id", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("chosen_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("application_choices_pkey", ["account_id", "application_id"])
    .execute();
  await db.schema
    .createIndex("application_choices_membership")
    .on("application_choices")
    .column("membership_id")
    .execute();
}
