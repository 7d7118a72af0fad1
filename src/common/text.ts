const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Length as a person counts it: user-perceived characters, not bytes or UTF-16 units (design.md §6). */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of graphemes.segment(value)) count++;
  return count;
}
