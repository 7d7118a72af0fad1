import { defaultLocale, locales, type Locale } from "../../common/limits.ts";

/** The supported language a request's Accept-Language prefers most, English when none fits. */
export function preferredLocale(acceptLanguage: string | undefined): Locale {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const quality = parameters.find((parameter) => parameter.trim().startsWith("q="));
      return {
        language: tag.trim().toLowerCase().split("-")[0] ?? "",
        quality: quality ? Number(quality.split("=")[1]) : 1,
      };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality);
  const match = ranked.find((entry) => (locales as readonly string[]).includes(entry.language));
  return (match?.language as Locale | undefined) ?? defaultLocale;
}

/** The first supported language of an app's `ui_locales` request, if it asked for one. */
export function requestedLocale(uiLocales: unknown): Locale | undefined {
  if (typeof uiLocales !== "string") return undefined;
  const tags = uiLocales.split(" ").map((tag) => tag.toLowerCase().split("-")[0] ?? "");
  return tags.find((tag): tag is Locale => (locales as readonly string[]).includes(tag));
}
