import type { Database } from "./database.ts";
import { searchWordsOf } from "./search-text.ts";

/** A membership as its word rows know it: where it belongs and where it sits in the members' order. */
export interface WordedMembership {
  id: string;
  organization_id: string;
  created_at: number;
}

/**
 * The word rows of memberships of one identity: each membership is found in its own organization by
 * the words of the identity's names (search-text.ts), in the order the members are listed.
 */
export function memberWordRows(
  memberships: readonly WordedMembership[],
  names: Parameters<typeof searchWordsOf>[0],
) {
  const words = searchWordsOf(names);
  return memberships.flatMap((membership) =>
    words.map((word) => ({
      organization_id: membership.organization_id,
      word,
      joined_at: membership.created_at,
      membership_id: membership.id,
    })),
  );
}

/** Rows a statement inserts: four parameters each stay far below either engine's limit. */
const rowsPerStatement = 500;

export async function insertMemberWords(
  db: Database,
  rows: ReturnType<typeof memberWordRows>,
): Promise<void> {
  for (let from = 0; from < rows.length; from += rowsPerStatement)
    await db
      .insertInto("member_search_words")
      .values(rows.slice(from, from + rowsPerStatement))
      .execute();
}

/** Replaces the word rows of every membership of the identity with those of its names as they are now. */
export async function replaceMemberWords(
  trx: Database,
  identityId: string,
  names: Parameters<typeof searchWordsOf>[0],
): Promise<void> {
  // Written, not only read: a membership leaving meanwhile waits (PostgreSQL) instead of taking its
  // row from under the words about to be inserted for it.
  const memberships = await trx
    .updateTable("identity_organizations")
    .set((eb) => ({ active: eb.ref("active") }))
    .where("identity_id", "=", identityId)
    .returning(["id", "organization_id", "created_at"])
    .execute();
  if (memberships.length === 0) return;
  await trx
    .deleteFrom("member_search_words")
    .where(
      "membership_id",
      "in",
      memberships.map((membership) => membership.id),
    )
    .execute();
  await insertMemberWords(trx, memberWordRows(memberships, names));
}
