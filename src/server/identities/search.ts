import { displayName, type IdentityMatch } from "../../common/api/identity.ts";
import type { Database } from "../store/database.ts";
import type { IdentityRow } from "../store/identities.ts";
import { foldedText as folded, queryWordsOf, searchWordsOf, wordsMatch } from "../store/search-text.ts";
import { reachableIdentities } from "../access/identities.ts";

function match(identity: IdentityRow): IdentityMatch {
  const { username, email, givenName, fullName, pictureUrl } = identity.document;
  return { id: identity.id, username, email, givenName, fullName, pictureUrl };
}

/** Whether each word of the query begins a word of the identity's names, or the query is its ID. */
const matches = (identity: IdentityRow, words: readonly string[], query: string) =>
  identity.id === query || wordsMatch(searchWordsOf(identity.document), words);

/**
 * The identities a person may pick by name, as admins of a document or to invite to an organization:
 * exactly the identities their account reaches (the ones it lists at `/i`), so a search tells nobody
 * anything they could not see already. Members of organizations the person administers are not among
 * them: an organization knows its members only by IDs of its own, and handing out their identity IDs
 * would let organizations correlate people. Someone else's identity is picked by the ID its person
 * shares.
 *
 * Names starting with the query come first, then the others, each by display name.
 */
export async function searchIdentities(
  db: Database,
  accountId: string,
  query: string,
  limit: number,
): Promise<{ identities: IdentityMatch[]; more: boolean }> {
  const wanted = folded(query);
  const words = queryWordsOf(query);
  const reachable = (await reachableIdentities(db, accountId)).identities;
  const found = reachable
    .filter((identity) => matches(identity, words, query))
    .map((identity) => {
      const view = match(identity);
      const name = folded(displayName(view));
      return { view, name, prefix: wanted !== "" && name.startsWith(wanted) };
    })
    .sort((a, b) => Number(b.prefix) - Number(a.prefix) || a.name.localeCompare(b.name));
  return { identities: found.slice(0, limit).map(({ view }) => view), more: found.length > limit };
}
