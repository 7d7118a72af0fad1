import consoleEn from "./console.en.json" with { type: "json" };
import consoleSl from "./console.sl.json" with { type: "json" };
import en from "./en.json" with { type: "json" };
import sl from "./sl.json" with { type: "json" };

/** The console's own texts, beside the texts of every page (en.json, sl.json), which the light page has alone. */
export const consoleTexts = { en: consoleEn, sl: consoleSl };

/** Each language's whole catalog, as the console has it. */
export const catalogs = {
  en: { ...en, ...consoleEn },
  sl: { ...sl, ...consoleSl },
};
