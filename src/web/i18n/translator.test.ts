import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { catalogs } from "./catalogs.ts";
import { withMarkup } from "./Trans.tsx";
import { createTranslator, interpolate } from "./translator.ts";

const en = createTranslator("en", catalogs.en).t;
const sl = createTranslator("sl", catalogs.sl).t;

describe("translator", () => {
  it("finds a nested text and fills in its values", () => {
    expect(en("errors.unknownVariables", { values: "a, b" })).toContain("a, b");
    expect(sl("language.label")).toBe("Jezik");
  });

  it("picks each language's plural form by the count", () => {
    const texts = {
      found_one: "{{count}} identiteta",
      found_two: "{{count}} identiteti",
      found_few: "{{count}} identitete",
      found_other: "{{count}} identitet",
    };
    const { t } = createTranslator("sl", { search: texts });
    const found = (count: number) => t("search.found" as never, { count });
    expect([1, 2, 3, 4, 5, 101, 102, 103].map(found)).toEqual([
      "1 identiteta",
      "2 identiteti",
      "3 identitete",
      "4 identitete",
      "5 identitet",
      "101 identiteta",
      "102 identiteti",
      "103 identitete",
    ]);
    const english = createTranslator("en", { search: { found_one: "one", found_other: "{{count}}" } }).t;
    expect(english("search.found" as never, { count: 1 })).toBe("one");
    expect(english("search.found" as never, { count: 0 })).toBe("0");
  });

  it("shows a key without a text as the key, and a placeholder without a value as it is", () => {
    expect(en("no.such.text" as never)).toBe("no.such.text");
    expect(interpolate("Hello {{ name }}, {{missing}}!", { name: "Ana" })).toBe("Hello Ana, {{missing}}!");
    expect(interpolate("Hello {{name}}!", { name: undefined })).toBe("Hello !");
  });
});

describe("text with markup", () => {
  const strong = createElement("strong");
  const render = (text: string, values: Record<string, string>) =>
    renderToStaticMarkup(createElement(Fragment, null, ...withMarkup(text, values, { strong })));

  it("makes a tag the given element, with the values in its words", () => {
    expect(render("<strong>{{app}}</strong> asks you", { app: "Shop" })).toBe(
      "<strong>Shop</strong> asks you",
    );
  });

  it("never reads markup from a value", () => {
    expect(render("<strong>{{app}}</strong>", { app: "<strong>x</strong><img src=x>" })).toBe(
      "<strong>&lt;strong&gt;x&lt;/strong&gt;&lt;img src=x&gt;</strong>",
    );
  });

  it("leaves a tag it has no element for as words", () => {
    expect(render("a <em>b</em>", {})).toBe("a &lt;em&gt;b&lt;/em&gt;");
  });
});
