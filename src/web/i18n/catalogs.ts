import consoleEn from "./console.en.json" with { type: "json" };
import consoleSl from "./console.sl.json" with { type: "json" };
import en from "./en.json" with { type: "json" };
import sl from "./sl.json" with { type: "json" };

/** Each language's whole catalog, as the console has it: the texts of every page and its own. */
export const catalogs = {
  en: { ...en, ...consoleEn },
  sl: { ...sl, ...consoleSl },
};
