import { describe, expect, it } from "vitest";
import { isHighlyRestrictive, unicodeScripts } from "./scripts.ts";

describe("highly restrictive scripts (TR39 §5.2)", () => {
  it.each([
    "alice",
    "Ελληνικά",
    "владимир",
    "日本語abc",
    "ひらがなカタカナ漢字",
    "カタカナー",
    "中文abc",
    "ㄅㄆㄇ中文abc",
    "한국어abc",
    "한국어漢字",
    "user_1.2-3",
    "2024",
    "éèñç",
    "עברית",
    "",
  ])("allows %j", (text) => {
    expect(isHighlyRestrictive(text)).toBe(true);
  });

  it.each([
    ["paypal with a Cyrillic а", "pаypal"],
    ["Greek with Latin", "Ωmega"],
    ["Latin with Greek omicron", "gοogle"],
    ["Cyrillic with Latin", "владимирx"],
    ["Latin with Arabic-Indic digits", "abc٣"],
    ["Hangul with Japanese kana", "한국어ひらがな"],
    ["Bopomofo with Hiragana", "ㄅひ"],
    ["Greek with Cyrillic", "αβгд"],
  ])("refuses %s", (_, text) => {
    expect(isHighlyRestrictive(text)).toBe(false);
  });

  it("knows every script of this runtime's Unicode", () => {
    // A newer Node with new scripts fails here, rather than refusing names written in them.
    const anyListed = new RegExp(
      `[${unicodeScripts.map((script) => `\\p{sc=${script}}`).join("")}\\p{sc=Zyyy}\\p{sc=Zinh}]`,
      "u",
    );
    const unlisted: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      const char = String.fromCodePoint(codePoint);
      if (!anyListed.test(char)) unlisted.push(codePoint.toString(16));
    }
    expect(unlisted).toEqual([]);
  });
});
