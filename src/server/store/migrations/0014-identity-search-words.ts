import { PostgresAdapter, sql, type Kysely } from "kysely";
import { searchWordsOf } from "../search-text.ts";

/**
 * The words each identity is found by (see search-text.ts), one row each, so that a search starts
 * from the identities whose words begin with a rare query word instead of reading every member of an
 * organization. They replace `identities.search_text`, which only a scan could search.
 *
 * On PostgreSQL the words compare byte by byte ("C"), as SQLite compares text: the identities whose
 * words begin with "nov" are then one range of the index, whatever the database's own collation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const byteOrder = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("identity_search_words")
    .addColumn("word", "text", (c) => (byteOrder ? c.notNull().modifyEnd(sql`collate "C"`) : c.notNull()))
    .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("identity_search_words_pk", ["word", "identity_id"])
    .execute();
  await db.schema
    .createIndex("identity_search_words_identity")
    .on("identity_search_words")
    .columns(["identity_id", "word"])
    .execute();
  await fillWords(db);
  await db.schema.alterTable("identities").dropColumn("search_text").execute();
}

/** Identities read and written at a time: a large store is filled without holding it all in memory. */
const batchSize = 1000;

async function fillWords(db: Kysely<unknown>): Promise<void> {
  for (let after = ""; ;) {
    const { rows } = await sql<{ id: string; document: string }>`select id, document from identities
      where id > ${after} order by id limit ${batchSize}`.execute(db);
    const last = rows.at(-1);
    if (!last) return;
    const words = rows.flatMap(({ id, document }) =>
      searchWordsOf(JSON.parse(document) as Record<string, unknown>).map((word) => sql`(${word}, ${id})`),
    );
    // A few hundred rows a statement stay far below either engine's limit on parameters.
    for (let from = 0; from < words.length; from += 500) {
      const values = sql.join(words.slice(from, from + 500));
      await sql`insert into identity_search_words (word, identity_id) values ${values}`.execute(db);
    }
    after = last.id;
  }
}
