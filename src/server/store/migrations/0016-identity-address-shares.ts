import type { Kysely } from "kysely";

/**
 * Identities shared with an e-mail address rather than with an account: the share belongs to
 * whichever account proved it owns the address, now or once one signs up with it. The identity's
 * document holds the shares; these rows follow it in the same transaction, as `identity_shares` do,
 * so that an account finds what was shared with its addresses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("identity_address_shares")
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    // The address's lookup key, as e-mail credentials keep it (credentials.provider_id).
    .addColumn("address_key", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("identity_address_shares_pk", ["identity_id", "address_key"])
    .execute();
  await db.schema
    .createIndex("identity_address_shares_address")
    .on("identity_address_shares")
    .column("address_key")
    .execute();
}
