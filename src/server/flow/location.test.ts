import { describe, expect, it } from "vitest";
import { sameSitePath } from "./location.ts";

const issuer = "https://id.example.com";

describe("sign-out location", () => {
  it.each([
    "/",
    "/i",
    "/o/abc?tab=users#top",
    "/a//b",
    "/%2F%2Fevil.example",
    "/%09/evil.example",
    "/i?next=https://evil.example/",
    "/ä",
  ])("accepts the path %j", (location) => {
    expect(sameSitePath(location, issuer)).toBe(location);
  });

  it.each([
    "",
    "i",
    "evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "\t//evil.example",
    " /i",
    "/i ",
    "/\u0000/evil.example",
    "/\u000b/evil.example",
    "/\u007f/evil.example",
    "/\u00a0/evil.example",
    "/\u200b/evil.example",
    "/\u2028/evil.example",
    "/\u3000/evil.example",
    "/\ufeff/evil.example",
  ])("refuses %j", (location) => {
    expect(() => sameSitePath(location, issuer)).toThrow("location must be a path on this site");
  });
});
