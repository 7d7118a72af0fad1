import type { Kysely } from "kysely";

/**
 * Identities shared with an e-mail address rather than with an account: the share belongs to
 * whichever account proved it owns the address, now or once one signs up with it, which finds it
 * through its addresses here. These rows are the only place such a share is kept, not the identity's
 * document: an instance of the previous release, serving the store during a rolling upgrade, rebuilds
 * the document and its `identity_shares` rows (which need an account) on any edit of the identity, and
 * never touches this table, so its edits leave the shares intact. They change in the transaction that
 * changes the document and its version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("identity_address_shares")
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    // The address's lookup key, as e-mail credentials keep it (credentials.provider_id).
    .addColumn("address_key", "text", (c) => c.notNull())
    // The share's own ID, which the identity's admins see and send back.
    .addColumn("id", "text", (c) => c.notNull())
    // The address as the admin who shared typed it.
    .addColumn("person", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    // Where the share stands among all of the identity's shares, as its admins listed them.
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("identity_address_shares_pk", ["identity_id", "address_key"])
    .execute();
  await db.schema
    .createIndex("identity_address_shares_address")
    .on("identity_address_shares")
    .column("address_key")
    .execute();
}
