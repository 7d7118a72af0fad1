/** A line at least this long was wrapped by its author to fit a terminal, not ended on purpose. */
const wrappedLineLength = 60;

/**
 * A plain-text document (LICENSE, NOTICE) as paragraphs that flow in any width: blank lines end a
 * paragraph; inside one, lines wrapped to fit a terminal are joined, and short lines (a title, a
 * copyright line) keep their line break ("\n").
 */
export function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
        .reduce((paragraph, line, index, lines) => {
          if (index === 0) return line;
          const previous = lines[index - 1] ?? "";
          return paragraph + (previous.length >= wrappedLineLength ? " " : "\n") + line;
        }, ""),
    )
    .filter((paragraph) => paragraph !== "");
}
