import { describe, expect, it } from "vitest";
import { queryWordsOf, searchWordMaxLength, searchWordsOf, wordsMatch, wordsOf } from "./search-text.ts";

describe("search words", () => {
  it("are the runs of letters and digits, folded", () => {
    expect(wordsOf("Ana.Kos@Example.com")).toEqual(["ana", "kos", "example", "com"]);
    expect(wordsOf("person-12345")).toEqual(["person", "12345"]);
    expect(wordsOf("Z\u030Ciga  ＺＵＰＡＮ")).toEqual(["žiga", "zupan"]);
    expect(wordsOf("%_\\ -")).toEqual([]);
  });

  it("of an identity are those of its names, each once", () => {
    const document = {
      username: "ana.kos",
      email: "ana@kos.si",
      givenName: "Ana",
      fullName: "Ana Kos",
      description: "x",
    };
    expect(searchWordsOf(document)).toEqual(["ana", "kos", "si"]);
  });

  it("are known by their beginning when long, in a query as in a name", () => {
    const long = "a".repeat(searchWordMaxLength + 10);
    expect(wordsOf(long)).toEqual(["a".repeat(searchWordMaxLength)]);
    expect(wordsMatch(wordsOf(long), queryWordsOf(`${long}b`))).toBe(true);
  });

  it("of a query leave out the words that begin another of them", () => {
    expect(queryWordsOf("an ana kos ana")).toEqual(["ana", "kos"]);
  });

  it("match when each query word begins some word", () => {
    const words = wordsOf("Ana Kosec ana.kos@example.com");
    expect(wordsMatch(words, queryWordsOf("kos ana"))).toBe(true);
    expect(wordsMatch(words, queryWordsOf("osec"))).toBe(false);
    expect(wordsMatch(words, queryWordsOf("ana novak"))).toBe(false);
  });
});
