import { describe, expect, it } from "vitest";
import { errorCodes } from "../../common/api/errors.ts";
import { catalogs } from "./catalogs.ts";
import consoleEn from "./console.en.json" with { type: "json" };
import pageEn from "./en.json" with { type: "json" };

const { en, sl } = catalogs;

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/** Every text of a catalog by its dotted key. */
function textsOf(catalog: object, prefix = ""): [string, unknown][] {
  return Object.entries(catalog).flatMap(([key, value]: [string, unknown]): [string, unknown][] =>
    typeof value === "object" && value !== null
      ? textsOf(value, `${prefix}${key}.`)
      : [[prefix + key, value]],
  );
}

function keysOf(catalog: object): string[] {
  return textsOf(catalog).map(([key]) => key);
}

/** Plural base key -> the plural categories the catalog has for it. */
function pluralForms(keys: string[]): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const key of keys) {
    const match = pluralSuffix.exec(key);
    if (!match?.[1]) continue;
    const base = key.slice(0, match.index);
    forms.set(base, [...(forms.get(base) ?? []), match[1]].sort());
  }
  return forms;
}

function categories(locale: string): string[] {
  return [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories].sort();
}

/** Keys with plural forms folded into their base key: the locales differ in their plural forms. */
function messageKeys(keys: string[]): string[] {
  return [...new Set(keys.map((key) => key.replace(pluralSuffix, "")))];
}

describe("translation catalogs", () => {
  const enKeys = keysOf(en);
  const slKeys = keysOf(sl);

  it("have the same keys in English and Slovenian", () => {
    const enMessages = messageKeys(enKeys);
    const slMessages = messageKeys(slKeys);
    expect(slMessages.filter((key) => !enMessages.includes(key))).toEqual([]);
    expect(enMessages.filter((key) => !slMessages.includes(key))).toEqual([]);
    expect([...pluralForms(slKeys).keys()].sort()).toEqual([...pluralForms(enKeys).keys()].sort());
  });

  it("have only non-empty texts", () => {
    const notText = (catalog: object) =>
      textsOf(catalog).filter(([, text]) => typeof text !== "string" || text.trim() === "");
    expect(notText(en)).toEqual([]);
    expect(notText(sl)).toEqual([]);
  });

  it("give every Slovenian plural the forms one, two, few and other", () => {
    expect(categories("sl")).toEqual(["few", "one", "other", "two"]);
    for (const [base, forms] of pluralForms(slKeys)) expect(forms, base).toEqual(categories("sl"));
  });

  it("give every English plural the forms one and other", () => {
    for (const [base, forms] of pluralForms(enKeys)) expect(forms, base).toEqual(categories("en"));
  });

  it("keep the console's texts apart from those of every page", () => {
    const pageSections = Object.keys(pageEn);
    expect(Object.keys(consoleEn).filter((section) => pageSections.includes(section))).toEqual([]);
  });

  it("translate every error code the server sends", () => {
    expect(errorCodes.filter((code) => !enKeys.includes(`errors.${code}`))).toEqual([]);
  });
});
