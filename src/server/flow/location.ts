import { HttpError } from "../http/errors.ts";

// Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so `/\t/evil`
// and `/\evil` become `//evil`, another host. Such characters, and any other control or space
// character a browser might trim or treat specially, have no place in a path Vrata hands out.
const unsafeCharacter = /[\p{Cc}\p{Cf}\p{Z}\s\\]/u;

/** `location` when it is a path on the issuer's own site, else a 400: never a way to another site. */
export function sameSitePath(location: string, issuer: string): string {
  const origin = new URL(issuer).origin;
  const resolved = URL.parse(location, origin);
  if (
    !location.startsWith("/") ||
    location.startsWith("//") ||
    unsafeCharacter.test(location) ||
    resolved?.origin !== origin
  ) {
    throw new HttpError(400, "badRequest", "location must be a path on this site");
  }
  return location;
}
