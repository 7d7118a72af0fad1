import i18next from "i18next";
import { consoleTexts } from "./catalogs.ts";
import "./index.ts";

// The console's page adds its own texts to those every page has, before its first render.
for (const [language, texts] of Object.entries(consoleTexts))
  i18next.addResourceBundle(language, "translation", texts, true);
