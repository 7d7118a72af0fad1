// How identities are found by name, in the store's word index and in memory alike: a query matches an
// identity when each of its words begins some word of the identity's names. Words are runs of letters
// and digits (with the marks that belong to them), so "ana.kos@example.com" is ana, kos, example and
// com, and a query is split the same way: pasting an address finds its owner. Both sides are folded
// without regard to case, width or composed forms ("Ž" and "Z\u030C" are one).

const searchedFields = ["username", "email", "givenName", "fullName"] as const;

/**
 * Longer words are known by their beginning only, on both sides: it keeps every word within what an
 * index entry may hold, and no one types that much of a name.
 */
export const searchWordMaxLength = 64;

/** Text folded the way searches fold it. */
export const foldedText = (text: string) => text.normalize("NFKC").toLocaleLowerCase();

/** The distinct words of a text, folded, in the order they first occur. */
export function wordsOf(text: string): string[] {
  const words = foldedText(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .map((word) => Array.from(word).slice(0, searchWordMaxLength).join(""));
  return [...new Set(words)];
}

/** The words an identity is found by: those of its username, e-mail address, given and full name. */
export function searchWordsOf(document: Partial<Record<(typeof searchedFields)[number], unknown>>): string[] {
  const names = searchedFields.flatMap((field) => {
    const value = document[field];
    return typeof value === "string" ? [value] : [];
  });
  return wordsOf(names.join(" "));
}

/**
 * The words of a query that a match must begin: a word that begins another of them is implied by it
 * and left out ("an ana" asks what "ana" does).
 */
export function queryWordsOf(query: string): string[] {
  const words = wordsOf(query);
  return words.filter((word) => !words.some((other) => other !== word && other.startsWith(word)));
}

/** Whether each query word begins one of the words (both as the functions above give them). */
export const wordsMatch = (words: readonly string[], queryWords: readonly string[]) =>
  queryWords.every((queryWord) => words.some((word) => word.startsWith(queryWord)));

/** The strings from which up to which a word's index range runs: those that begin with `word`. */
export const wordRange = (word: string) => ({ from: word, to: `${word}\u{10FFFF}` });
