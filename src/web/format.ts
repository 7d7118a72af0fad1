import { useMemo } from "react";
import { useTranslation } from "./i18n/index.ts";

const withSeconds: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "medium" };
/** For times a person plans by (until when something is valid), where seconds are noise. */
export const toTheMinute: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" };

/** Formats timestamps (ISO 8601) in the language of the interface, in the browser's time zone. */
export function useFormatTimestamp(options = withSeconds): (timestamp: string) => string {
  const { language } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(language, options);
    return (timestamp) => format.format(new Date(timestamp));
  }, [language, options]);
}
