import type { Kysely } from "kysely";

/**
 * An account its person asked to delete: when the grace period ends and the cleanup deletes it (null
 * while none is pending), with an index the cleanup finds the due ones by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("accounts").addColumn("deletion_due_at", "bigint").execute();
  await db.schema.createIndex("accounts_deletion_due").on("accounts").column("deletion_due_at").execute();
}
