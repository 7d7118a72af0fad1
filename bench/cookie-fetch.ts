// A browser's cookie handling, as much as the sign-in flow needs: the flow's session cookie and
// oidc-provider's interaction and resume cookies are kept by name and path and sent back where their
// path covers the request. One jar per flow, like one browser per person.

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

function pathOf(attributes: string[]): string {
  const attribute = attributes.find((a) => a.trim().toLowerCase().startsWith("path="));
  return attribute?.trim().slice("path=".length) ?? "/";
}

function isRemoval(value: string, attributes: string[]): boolean {
  return value === "" || attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
}

/**
 * A fetch with its own cookie jar that never follows redirects (the caller checks each hop); `cookies`
 * ("name=value; name=value") are in the jar from the start, for the path /.
 */
export function cookieFetch(cookies = ""): Fetch {
  const jar = new Map<string, { name: string; value: string; path: string }>();
  for (const pair of cookies.split(";").filter((part) => part.includes("="))) {
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator).trim();
    jar.set(`${name};/`, { name, value: pair.slice(separator + 1).trim(), path: "/" });
  }
  return async (url, init = {}) => {
    const { pathname } = new URL(url);
    const cookies = [...jar.values()].filter((cookie) => pathname.startsWith(cookie.path));
    const headers = new Headers(init.headers);
    if (cookies.length > 0) headers.set("cookie", cookies.map((c) => `${c.name}=${c.value}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const path = pathOf(attributes);
      if (isRemoval(value, attributes)) jar.delete(`${name};${path}`);
      else jar.set(`${name};${path}`, { name, value, path });
    }
    return response;
  };
}
