import type { Kysely } from "kysely";

/** Sign-ins at third-party providers under way, each answered once (store/upstream-requests.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("upstream_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("flow_id", "text")
    .addColumn("account_id", "text", (c) => c.references("accounts.id").onDelete("cascade"))
    .addColumn("browser_hash", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("upstream_requests_expires_at")
    .on("upstream_requests")
    .column("expires_at")
    .execute();
}
