import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/** Formats timestamps (ISO 8601) in the language of the interface, in the browser's time zone. */
export function useFormatTimestamp(): (timestamp: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "medium" });
    return (timestamp) => format.format(new Date(timestamp));
  }, [language]);
}
