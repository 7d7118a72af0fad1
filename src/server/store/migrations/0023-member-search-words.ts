import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { Database } from "../database.ts";
import { insertMemberWords, memberWordRows, type WordedMembership } from "../member-search-words.ts";

/**
 * The words each membership is found by in its organization, one row each, with the membership's
 * place in the members' newest-first order: the rows of one organization and word are then one index
 * range already in the order a page lists, so a page of members with a common word reads only its
 * own rows, wherever in the organization's history they are. Each organization's rows hold only its
 * own members, so its searches can never find anyone else.
 *
 * They replace `identity_search_words`, which this version no longer reads or writes; a later one
 * drops it. As in migration 0014, the words compare byte by byte ("C") on PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const byteOrder = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("member_search_words")
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("word", "text", (c) => (byteOrder ? c.notNull().modifyEnd(sql`collate "C"`) : c.notNull()))
    .addColumn("joined_at", "bigint", (c) => c.notNull())
    .addColumn("membership_id", "text", (c) =>
      c.notNull().references("identity_organizations.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("member_search_words_pk", [
      "organization_id",
      "word",
      "joined_at",
      "membership_id",
    ])
    .execute();
  // Checks a membership's other words, and finds its rows to replace them.
  await db.schema
    .createIndex("member_search_words_membership")
    .on("member_search_words")
    .columns(["membership_id", "word"])
    .execute();
  await fillWords(db);
}

/** Memberships read and written at a time: a large store is filled without holding it all in memory. */
const batchSize = 1000;

async function fillWords(db: Database): Promise<void> {
  for (let after = ""; ;) {
    const { rows } = await sql<WordedMembership & { document: string }>`
      select membership.id, membership.organization_id, membership.created_at, identity.document
        from identity_organizations membership
        join identities identity on identity.id = membership.identity_id
       where membership.id > ${after}
       order by membership.id
       limit ${batchSize}`.execute(db);
    const last = rows.at(-1);
    if (!last) return;
    await insertMemberWords(
      db,
      rows.flatMap((row) => memberWordRows([row], JSON.parse(row.document) as Record<string, unknown>)),
    );
    after = last.id;
  }
}
