import type { TextParts } from "./index.ts";

/** The console's own texts, beside the texts of every page. */
export const consoleTexts: TextParts = {
  en: () => import("./console.en.json", { with: { type: "json" } }),
  sl: () => import("./console.sl.json", { with: { type: "json" } }),
};
