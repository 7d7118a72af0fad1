import { useId } from "react";
import { useTranslation } from "../i18n/index.ts";
import { locales } from "../../common/limits.ts";
import { chooseLocale, isLocale } from "../i18n/index.ts";
import { GlobeIcon } from "./icons.tsx";

/** The language of the interface; `labelClassName` says when its label is only for screen readers. */
export function LanguageSwitch({ labelClassName = "max-sm:sr-only" }: { readonly labelClassName?: string }) {
  const { t, language } = useTranslation();
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
      <GlobeIcon />
      <label htmlFor={id} className={`text-sm ${labelClassName}`}>
        {t("language.label")}
      </label>
      <select
        id={id}
        value={language}
        onChange={(event) => {
          if (isLocale(event.target.value)) chooseLocale(event.target.value);
        }}
        className="rounded-md border border-slate-400 bg-white px-2 py-1.5 text-base text-slate-900 sm:text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        {locales.map((locale) => (
          // Each language is named in itself, so people find theirs whatever language is shown.
          <option key={locale} value={locale} lang={locale}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
