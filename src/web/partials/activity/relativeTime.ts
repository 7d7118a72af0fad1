import { useMemo } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { toTheMinute, useFormatTimestamp } from "../../format.ts";

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/**
 * A recent time as the distance from now ("5 minutes ago", "včeraj"), in the language of the page;
 * from a week back, the date and time themselves.
 */
export function relativeTime(language: string, timestamp: string, now: number): string | undefined {
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  const ago = now - new Date(timestamp).getTime();
  if (ago < minute) return format.format(0, "second");
  if (ago < hour) return format.format(-Math.floor(ago / minute), "minute");
  if (ago < day) return format.format(-Math.floor(ago / hour), "hour");
  if (ago < 7 * day) return format.format(-Math.floor(ago / day), "day");
  return undefined;
}

/** {@link relativeTime} for the page's language, with the date and time for older times. */
export function useRelativeTime(): (timestamp: string) => string {
  const { language } = useTranslation();
  const formatTimestamp = useFormatTimestamp(toTheMinute);
  return useMemo(
    () => (timestamp) => relativeTime(language, timestamp, Date.now()) ?? formatTimestamp(timestamp),
    [language, formatTimestamp],
  );
}
