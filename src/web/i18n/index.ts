import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { defaultLocale, locales, type Locale } from "../../common/limits.ts";
import type { consoleTexts } from "./catalogs.ts";
// The texts of every page; the console's own are added by console.ts, so the light page does without.
import en from "./en.json" with { type: "json" };
import sl from "./sl.json" with { type: "json" };

declare module "i18next" {
  interface CustomTypeOptions {
    resources: { translation: typeof en & (typeof consoleTexts)["en"] };
  }
}

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

// With inline resources and initAsync false, init completes before the first render.
void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, sl: { translation: sl } },
  lng: detectLocale(),
  fallbackLng: defaultLocale,
  supportedLngs: locales,
  initAsync: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
});
