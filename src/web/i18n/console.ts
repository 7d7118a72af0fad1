import type { Texts } from "./index.ts";

/** The console's own texts, beside the texts of every page. */
export const consoleTexts: Texts = {
  en: () => import("./console.en.json", { with: { type: "json" } }),
  sl: () => import("./console.sl.json", { with: { type: "json" } }),
};
