import { sql, type AliasedSelectQueryBuilder } from "kysely";
import type { Database } from "./database.ts";
import { toMembership, type IdentityDocument, type MembershipRow } from "./identities.ts";
import { olderThan, type Position } from "./keyset.ts";
import { wordRange } from "./search-text.ts";

/** A member of an organization as its admins list it. */
export interface MemberRow extends MembershipRow {
  document: IdentityDocument;
  joinedAt: number;
  lastSignedInAt: number | null;
}

/** How a member search chooses where to start; the defaults suit any store, tests make them small. */
export interface MemberSearchLimits {
  /** Word rows counted per query word to find the rarest; words with at least as many tie. */
  countedRows: number;
  /** The most words a query word may begin for the search to read each one's rows in order. */
  orderedWords: number;
}

const memberSearchLimits: MemberSearchLimits = { countedRows: 2000, orderedWords: 64 };

/** How many of the organization's word rows begin with `word`, counted up to `atMost`. */
async function rowsWithWord(db: Database, organizationId: string, word: string, atMost: number) {
  const { from, to } = wordRange(word);
  const { rows } = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("member_search_words")
        .select("membership_id")
        .where("organization_id", "=", organizationId)
        .where("word", ">=", from)
        .where("word", "<", to)
        .limit(atMost)
        .as("matches"),
    )
    .select((eb) => eb.fn.countAll<number | string>().as("rows"))
    .executeTakeFirstOrThrow();
  return Number(rows);
}

/**
 * The words of the organization's members that begin with `word`, up to `atMost` of them: each found
 * by one step through the index from the one before, however many rows each word has.
 */
async function wordsBeginning(db: Database, organizationId: string, word: string, atMost: number) {
  const { from, to } = wordRange(word);
  const { rows } = await sql<{ word: string }>`
    with recursive spread(word, found) as (
      select (select word from member_search_words
               where organization_id = ${organizationId} and word >= ${from} and word < ${to}
               order by word limit 1), 1
      union all
      select (select next.word from member_search_words next
               where next.organization_id = ${organizationId} and next.word > spread.word and next.word < ${to}
               order by next.word limit 1), found + 1
        from spread
       where spread.word is not null and found < ${atMost}
    )
    select word from spread where word is not null`.execute(db);
  return rows.map((row) => row.word);
}

/**
 * The organization's memberships with all the words after `before`, newest first, as (joined_at,
 * membership_id): starting from the word rows of `start`, the rarest word. When it begins only a few
 * of the members' words, each one's rows are read in the index's order and the pages merged, so a
 * common word reads a page's worth of rows; otherwise its rows are read whole and sorted.
 */
async function matchingMemberships(
  db: Database,
  organizationId: string,
  limit: number,
  {
    before,
    start,
    others,
    limits,
  }: { before: Position | undefined; start: string; others: readonly string[]; limits: MemberSearchLimits },
) {
  const rowsOf = (words: { equal: string } | { beginning: string }) => {
    let found = db
      .selectFrom("member_search_words as found")
      .select(["found.joined_at", "found.membership_id"])
      .where("found.organization_id", "=", organizationId);
    if ("equal" in words) found = found.where("found.word", "=", words.equal);
    else {
      const { from, to } = wordRange(words.beginning);
      found = found.where("found.word", ">=", from).where("found.word", "<", to);
    }
    if (before) found = found.where(olderThan(before, "found.joined_at", "found.membership_id"));
    for (const word of others) {
      const { from, to } = wordRange(word);
      // Offset 0 keeps PostgreSQL from turning the check into a join, which it may run by hashing
      // every membership with the word: read in order, each row is looked up by itself.
      found = found.where((eb) =>
        eb.exists(
          eb
            .selectFrom("member_search_words as other")
            .select("other.membership_id")
            .whereRef("other.membership_id", "=", "found.membership_id")
            .where("other.word", ">=", from)
            .where("other.word", "<", to)
            .limit(1)
            .offset(0),
        ),
      );
    }
    // A member has a row for each of its words that the range holds: once each in the page.
    return found
      .distinct()
      .orderBy("found.joined_at", "desc")
      .orderBy("found.membership_id", "desc")
      .limit(limit);
  };
  const spread = await wordsBeginning(db, organizationId, start, limits.orderedWords + 1);
  if (spread.length === 0) return undefined;
  if (spread.length > limits.orderedWords) return rowsOf({ beginning: start });
  const [first, ...rest] = spread.map((word, index) =>
    db.selectFrom(rowsOf({ equal: word }).as(`word${index}`)).selectAll(),
  );
  if (!first) return undefined;
  // A member found by several of these words (john, johnson) is listed once.
  const merged = rest.reduce((all, next) => all.union(next), first);
  return db
    .selectFrom(merged.as("found"))
    .selectAll()
    .orderBy("joined_at", "desc")
    .orderBy("membership_id", "desc")
    .limit(limit);
}

/** The organization's next `limit` memberships after `before`, newest first. */
function newestMemberships(
  db: Database,
  organizationId: string,
  limit: number,
  before: Position | undefined,
) {
  let page = db
    .selectFrom("identity_organizations as membership")
    .select(["membership.created_at as joined_at", "membership.id as membership_id"])
    .where("membership.organization_id", "=", organizationId)
    .orderBy("membership.created_at", "desc")
    .orderBy("membership.id", "desc")
    .limit(limit);
  if (before) page = page.where(olderThan(before, "membership.created_at", "membership.id"));
  return page;
}

/** A page of memberships as (joined_at, membership_id), newest first. */
type Page = AliasedSelectQueryBuilder<{ joined_at: number; membership_id: string }, "page">;

/** The members of a page of memberships, with their identities' documents, newest first. */
async function withDocuments(db: Database, page: Page): Promise<MemberRow[]> {
  const rows = await db
    .selectFrom(page)
    .innerJoin("identity_organizations as membership", "membership.id", "page.membership_id")
    .innerJoin("identities as identity", "identity.id", "membership.identity_id")
    .selectAll("membership")
    .select("identity.document")
    .orderBy("membership.created_at", "desc")
    .orderBy("membership.id", "desc")
    .execute();
  return rows.map((row) => ({
    ...toMembership(row),
    document: JSON.parse(row.document) as IdentityDocument,
    joinedAt: row.created_at,
    lastSignedInAt: row.last_signed_in_at,
  }));
}

/**
 * One page of an organization's members, newest first, starting after the `before` cursor; with
 * `words` (as queryWordsOf gives them), only members each of whose words begins a word of their names.
 *
 * A search starts from its rarest word among the organization's own word rows (member-search-words.ts)
 * and checks the others on each row it reads.
 */
export async function membersOf(
  db: Database,
  organizationId: string,
  limit: number,
  { before, words }: { before?: Position | undefined; words: readonly string[] },
  limits: MemberSearchLimits = memberSearchLimits,
): Promise<MemberRow[]> {
  if (words.length === 0)
    return withDocuments(db, newestMemberships(db, organizationId, limit, before).as("page"));
  const counted =
    words.length === 1
      ? words.map((word) => ({ word, count: 0 }))
      : await Promise.all(
          words.map(async (word) => ({
            word,
            count: await rowsWithWord(db, organizationId, word, limits.countedRows),
          })),
        );
  counted.sort((a, b) => a.count - b.count);
  const [start, ...others] = counted.map(({ word }) => word);
  if (start === undefined || (counted[0]?.count === 0 && words.length > 1)) return [];
  const page = await matchingMemberships(db, organizationId, limit, { before, start, others, limits });
  return page ? withDocuments(db, page.as("page")) : [];
}
