import { use, useSyncExternalStore } from "react";
import { defaultLocale, locales, type Locale } from "../../common/limits.ts";
import { fulfilledValue, settling } from "../settled.ts";
import { createTranslator, hasText, type TFunction, type Texts, type Translator } from "./translator.ts";

export type { TextKey, TFunction } from "./translator.ts";

/** A part of the app's texts, each language loaded on its own when it is shown. */
export type TextParts = Record<Locale, () => Promise<{ default: Texts }>>;

/** The texts of every page; the light page has only these. */
export const pageTexts: TextParts = {
  en: () => import("./en.json", { with: { type: "json" } }),
  sl: () => import("./sl.json", { with: { type: "json" } }),
};

/** A language's texts, loaded, with their translator. */
interface Loaded extends Translator {
  readonly texts: Texts;
}

/**
 * The language shown and its texts: a promise that views wait for (with `use`), replaced only by
 * one that has settled, so a switch never makes a view wait again.
 */
interface Shown {
  readonly language: Locale;
  readonly texts: Promise<Loaded>;
}

const choiceStorageKey = "vrata.locale";
let parts: readonly TextParts[] = [];
const loading = new Map<Locale, Promise<Loaded>>();
/** Languages whose texts did not load: a switch to one of them tries again. */
const failed = new Set<Locale>();
let shown: Shown | undefined;
/** The language last asked for: it wins over one asked for earlier whose texts load later. */
let wanted: Locale = defaultLocale;
const listeners = new Set<() => void>();

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

function storedChoice(): Locale | undefined {
  try {
    const value = localStorage.getItem(choiceStorageKey);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The person's own choice, else the browser's languages (its Accept-Language), else English. */
function detectLocale(): Locale {
  const preferred = navigator.languages.map((tag) => tag.toLowerCase().split("-")[0]);
  return storedChoice() ?? preferred.find(isLocale) ?? defaultLocale;
}

/**
 * A language's part of each of the app's parts, merged; loaded once. When a part fails to load, the
 * texts are empty (each would show its key) and the next switch to the language tries again.
 */
function load(language: Locale): Promise<Loaded> {
  let loaded = loading.get(language);
  if (loaded === undefined) {
    loaded = Promise.all(parts.map((part) => part[language]()))
      .then(
        (texts) => Object.assign({}, ...texts.map((part) => part.default)) as Texts,
        (error: unknown) => {
          console.error(`The ${language} texts did not load`, error);
          failed.add(language);
          return {};
        },
      )
      .then((texts) => ({ texts, ...createTranslator(language, texts) }));
    loading.set(language, settling(loaded));
  }
  return loaded;
}

function notify(): void {
  for (const listener of listeners) listener();
}

/**
 * Shows `language` once its texts have loaded; until then, or when they fail to load, the page stays
 * in the language it has.
 */
function changeLanguage(language: Locale): void {
  wanted = language;
  if (failed.delete(language)) loading.delete(language);
  const texts = load(language);
  void texts.then(() => {
    if (wanted !== language || (failed.has(language) && shownLoaded())) return;
    shown = { language, texts };
    document.documentElement.lang = language;
    notify();
  });
}

export function chooseLocale(locale: Locale): void {
  try {
    localStorage.setItem(choiceStorageKey, locale);
  } catch {
    // Storage can be disabled; the choice then lasts until the page is reloaded.
  }
  changeLanguage(locale);
}

/** The language an app asked for with `ui_locales`, unless the person chose one themselves. */
export function followRequestedLocale(locale: Locale): void {
  if (storedChoice() === undefined) changeLanguage(locale);
}

/**
 * Starts the app's texts in the language to show, loading only that language's part of each of
 * `textParts`; another language's come when the person switches to it. Views wait for them
 * ({@link useTranslation} suspends).
 */
export function startTexts(textParts: readonly TextParts[]): void {
  parts = textParts;
  const language = detectLocale();
  shown = { language, texts: load(language) };
  changeLanguage(language);
}

const shownLoaded = () => fulfilledValue(shown?.texts);

/** Whether the language shown has a text at `key` (e.g. a message for an error code). */
export function textExists(key: string): boolean {
  const loaded = shownLoaded();
  return loaded !== undefined && hasText(loaded.texts, key);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function current(): Shown {
  if (shown === undefined) throw new Error("startTexts must run before the first view");
  return shown;
}

/** The language shown with its texts; suspends the component until the first texts have loaded. */
export function useShownTexts(): { language: Locale } & Loaded {
  const { language, texts } = useSyncExternalStore(subscribe, current);
  return { language, ...use(texts) };
}

/** The translate function and the language of the texts shown; re-renders when the language changes. */
export function useTranslation(): { t: TFunction; language: Locale } {
  const { t, language } = useShownTexts();
  return { t, language };
}
