// An identity's names as searches compare them: without regard to case, width or composed forms
// ("Ž" and "Z\u030C" are one), in one column, so a search is one condition per word.

const searchedFields = ["username", "email", "givenName", "fullName"] as const;

/** Text folded the way searches fold it. */
export const foldedText = (text: string) => text.normalize("NFKC").toLocaleLowerCase();

/** The identity's searched names, folded, one per line. */
export function searchTextOf(document: Partial<Record<(typeof searchedFields)[number], unknown>>): string {
  return searchedFields
    .flatMap((field) => {
      const value = document[field];
      return typeof value === "string" && value ? [foldedText(value)] : [];
    })
    .join("\n");
}
