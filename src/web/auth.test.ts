import * as oauth from "oauth4webapi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  forgetSilentSignIn,
  isSilentRefusal,
  mayTrySilentSignIn,
  safePath,
  signInErrorCode,
} from "./auth.ts";

/** A tab's session storage. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => items.delete(key),
    setItem: (key, value) => items.set(key, value),
  };
}

describe("silent sign-in at start-up", () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal("sessionStorage", storage);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is tried once per tab, on console pages, when the address is no authorization response", () => {
    expect(mayTrySilentSignIn("/", false)).toBe(true);
    expect(mayTrySilentSignIn("/i", false)).toBe(true);
    expect(mayTrySilentSignIn("/", true)).toBe(false);
    expect(mayTrySilentSignIn("/auth/some-flow", false)).toBe(false);

    storage.setItem("vrata.silentSignInTried", "1");
    expect(mayTrySilentSignIn("/", false)).toBe(false);
    forgetSilentSignIn();
    expect(mayTrySilentSignIn("/", false)).toBe(true);
  });

  it("is never tried without session storage, which guards against loops", () => {
    vi.stubGlobal("sessionStorage", {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
    });
    expect(mayTrySilentSignIn("/", false)).toBe(false);
  });

  it("takes only the answers that mean 'sign in yourself' as a quiet refusal", () => {
    const refusal = (error: string) =>
      new oauth.AuthorizationResponseError("refused", {
        cause: new URLSearchParams({ error }),
      });
    expect(isSilentRefusal(refusal("login_required"))).toBe(true);
    expect(isSilentRefusal(refusal("consent_required"))).toBe(true);
    expect(isSilentRefusal(refusal("account_selection_required"))).toBe(true);
    expect(isSilentRefusal(refusal("interaction_required"))).toBe(true);
    expect(isSilentRefusal(refusal("access_denied"))).toBe(false);
    expect(isSilentRefusal(new Error("login_required"))).toBe(false);
  });
});

describe("safePath", () => {
  it("keeps paths on this origin only", () => {
    expect(safePath("/i?x=1")).toBe("/i?x=1");
    expect(safePath("//evil.example/")).toBe("/");
    expect(safePath("/\\evil.example/")).toBe("/");
    expect(safePath("https://evil.example/")).toBe("/");
  });
});

describe("signInErrorCode", () => {
  it("names a server that gives no answer at all as unreachable", async () => {
    // Port 1 on loopback: nothing listens there, so fetch() gets no HTTP answer.
    const failure: unknown = await oauth
      .discoveryRequest(new URL("https://127.0.0.1:1"))
      .catch((error: unknown) => error);
    expect(signInErrorCode(failure)).toBe("unreachable");
  });

  it("keeps the library's own refusals apart from an unreachable server", async () => {
    const misuse: unknown = await Promise.resolve()
      .then(() => oauth.discoveryRequest("https://127.0.0.1:1" as unknown as URL))
      .catch((error: unknown) => error);
    expect(misuse).toBeInstanceOf(TypeError);
    expect(signInErrorCode(misuse)).toBe("unexpected");
  });
});
