import type { Send } from "./from-address.ts";

// What a browser does with cookies, enough for driving the auth flow over fetch: it keeps cookies by
// name and path and sends those whose path covers the request.

interface StoredCookie {
  value: string;
  path: string;
}

export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const path =
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith("path="))
          ?.slice(5) ?? "/";
      const expired = attributes.some((a) => /^max-age=0$|^expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.#cookies.delete(`${name};${path}`);
      else this.#cookies.set(`${name};${path}`, { value, path });
    }
  }

  header(url: string): string {
    const { pathname } = new URL(url);
    return [...this.#cookies.entries()]
      .filter(([, cookie]) => pathname.startsWith(cookie.path))
      .map(([key, cookie]) => `${key.split(";")[0] ?? ""}=${cookie.value}`)
      .join("; ");
  }

  /** The value of the cookie `name` (on any path), if the jar holds one. */
  value(name: string): string | undefined {
    return [...this.#cookies.entries()].find(([key]) => key.startsWith(`${name};`))?.[1].value;
  }

  has(name: string): boolean {
    return [...this.#cookies.keys()].some((key) => key.startsWith(`${name};`));
  }
}

/** A fetch that keeps cookies in the jar and never follows redirects. */
export function browserFetch(jar: CookieJar, send: Send = fetch) {
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const cookies = jar.header(url);
    if (cookies) headers.set("cookie", cookies);
    const response = await send(url, { ...init, headers, redirect: "manual" });
    jar.store(response);
    return response;
  };
}
