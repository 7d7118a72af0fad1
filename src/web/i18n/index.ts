import i18next, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { defaultLocale, locales, type Locale } from "../../common/limits.ts";
import type { catalogs } from "./catalogs.ts";

declare module "i18next" {
  interface CustomTypeOptions {
    resources: { translation: (typeof catalogs)["en"] };
  }
}

/** A part of the app's texts, each language loaded on its own when it is shown. */
export type Texts = Record<Locale, () => Promise<{ default: Record<string, unknown> }>>;

/** The texts of every page; the light page has only these. */
export const pageTexts: Texts = {
  en: () => import("./en.json", { with: { type: "json" } }),
  sl: () => import("./sl.json", { with: { type: "json" } }),
};

const choiceStorageKey = "vrata.locale";

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

export function chooseLocale(locale: Locale): void {
  try {
    localStorage.setItem(choiceStorageKey, locale);
  } catch {
    // Storage can be disabled; the choice then lasts until the page is reloaded.
  }
  void i18next.changeLanguage(locale);
}

/** The language an app asked for with `ui_locales`, unless the person chose one themselves. */
export function followRequestedLocale(locale: Locale): void {
  if (storedChoice() === undefined) void i18next.changeLanguage(locale);
}

i18next.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});

/**
 * Starts the app's texts in the language to show, loading only that language's part of each of
 * `parts`; another language's come when the person switches to it. Views wait for them (Suspense).
 */
export function startTexts(parts: readonly Texts[]): void {
  const backend: BackendModule = {
    type: "backend",
    init: () => undefined,
    read: (language, _namespace, callback) => {
      if (!isLocale(language)) {
        callback(new Error(`Vrata has no texts in ${language}`), false);
        return;
      }
      Promise.all(parts.map((part) => part[language]()))
        .then((loaded) =>
          callback(null, Object.fromEntries(loaded.flatMap((texts) => Object.entries(texts.default)))),
        )
        .catch((error: unknown) =>
          callback(error instanceof Error ? error : new Error(String(error)), false),
        );
    },
  };
  void i18next
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: detectLocale(),
      // Every language has every text (catalogs.test.ts): none falls back, so no second language loads.
      fallbackLng: false,
      supportedLngs: locales,
      // React escapes what it renders.
      interpolation: { escapeValue: false },
    });
}
