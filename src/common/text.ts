// Made on first use: loading the segmentation rules takes ~20 ms that a server start would wait for.
let graphemes: Intl.Segmenter | undefined;

/** Length as a person counts it: user-perceived characters, not bytes or UTF-16 units (design.md §6). */
export function characterCount(value: string): number {
  let count = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const _ of graphemes.segment(value)) count++;
  return count;
}
