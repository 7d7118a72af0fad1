import { pageErrorElementId, pageErrorSchema, type PageError } from "../common/api/page-error.ts";

/**
 * The error the server answered this page load with (server/http/web-page.ts), if it did. Data the
 * app cannot read still says that the load failed.
 */
function readPageError(): PageError | undefined {
  const element = document.getElementById(pageErrorElementId);
  if (element === null) return undefined;
  try {
    const parsed = pageErrorSchema.safeParse(JSON.parse(element.textContent));
    return parsed.success ? parsed.data : { error: "unexpected" };
  } catch {
    return { error: "unexpected" };
  }
}

const loaded = readPageError();
/** The address (path and query) the server answered this page load for. */
export const loadedAddress = window.location.pathname + window.location.search;

/**
 * The page error of an address: the error belongs to the address the server answered with it, so the
 * pages the person goes on to show as usual (and going back shows the error again).
 */
export function pageErrorAt(location: { pathname: string; search: string }): PageError | undefined {
  return location.pathname + location.search === loadedAddress ? loaded : undefined;
}

/** Whether this page load is an error page (start-up then tries no silent sign-in). */
export const loadedWithError = loaded !== undefined;
