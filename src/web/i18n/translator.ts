import type { catalogs } from "./catalogs.ts";

// Turning a text's key into the words of one language: a key names a text in the nested catalog
// (`authFlow.code.sent`), a count picks the language's plural form (`…_one`, `…_few`, by the
// platform's Intl.PluralRules) and `{{name}}` takes a value. The platform does the hard part (plural
// rules), so the pages carry a few hundred bytes for it instead of a general i18n library.

type Catalog = (typeof catalogs)["en"];
type PluralCategory = Intl.LDMLPluralRule;

/** Every text's dotted path in a catalog. */
type Paths<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A path without its plural suffix: plural texts are asked for by their base key and a count. */
type PluralBase<Path extends string> = Path extends `${infer Base}_${PluralCategory}` ? Base : Path;

/** The key of a text every language has (catalogs.test.ts keeps the languages' keys equal). */
export type TextKey = PluralBase<Paths<Catalog>>;

/** Values for a text's `{{name}}` placeholders; `count` also picks the plural form. */
export type TextValues = { readonly count?: number } & Readonly<Record<string, string | number | undefined>>;

export type TFunction = (key: TextKey, values?: TextValues) => string;

/** A language's texts as loaded: nested objects of strings. */
export interface Texts {
  readonly [name: string]: string | Texts;
}

const placeholder = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * Fills in `{{name}}` placeholders. One whose value the caller did not pass stays as it is, so the
 * mistake shows; a value passed as undefined leaves nothing.
 */
export function interpolate(text: string, values: TextValues = {}): string {
  return text.replace(placeholder, (placeholder: string, name: string) => {
    if (!Object.hasOwn(values, name)) return placeholder;
    const value = values[name];
    return value === undefined ? "" : String(value);
  });
}

function textAt(texts: Texts, path: string): string | undefined {
  let node: string | Texts | undefined = texts;
  for (const name of path.split(".")) {
    if (typeof node !== "object") return undefined;
    node = Object.hasOwn(node, name) ? node[name] : undefined;
  }
  return typeof node === "string" ? node : undefined;
}

/** Whether `texts` hold a text at `key` (plural texts have theirs at the suffixed keys). */
export function hasText(texts: Texts, key: string): boolean {
  return textAt(texts, key) !== undefined;
}

/**
 * The text for `key` before its placeholders are filled: with a count, the language's plural form
 * of it (else its `other` form, else the key's own text).
 */
export function findText(
  texts: Texts,
  plurals: Intl.PluralRules,
  key: string,
  count?: number,
): string | undefined {
  if (count === undefined) return textAt(texts, key);
  return (
    textAt(texts, `${key}_${plurals.select(count)}`) ?? textAt(texts, `${key}_other`) ?? textAt(texts, key)
  );
}

/** One language's texts, looked up and filled in. */
export interface Translator {
  /** The text for `key` with its values; a key without a text shows as itself, so it is noticed. */
  readonly t: TFunction;
  /** The text for `key` (its plural form for `count`) before its placeholders are filled. */
  readonly text: (key: TextKey, count?: number) => string;
}

export function createTranslator(language: string, texts: Texts): Translator {
  const plurals = new Intl.PluralRules(language);
  const text = (key: TextKey, count?: number) => findText(texts, plurals, key, count) ?? key;
  return { text, t: (key, values) => interpolate(text(key, values?.count), values) };
}
