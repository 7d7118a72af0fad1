import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, sealer, WrongSecretKey } from "./sealing.ts";

describe("sealing", () => {
  const key = randomBytes(32);
  const { seal, open } = sealer(key);

  it("opens what it sealed, and the sealed text shows neither the value nor a repeat", () => {
    const first = seal("the cookie secret", "instance_settings:cookieSecret");
    const second = seal("the cookie secret", "instance_settings:cookieSecret");
    expect(first).toMatch(/^sealed:v1:[\w-]+$/);
    expect(first).not.toContain("cookie secret");
    expect(first).not.toBe(second);
    expect(isSealed(first)).toBe(true);
    expect(isSealed('{"kty":"RSA"}')).toBe(false);
    expect(open(first, "instance_settings:cookieSecret")).toBe("the cookie secret");
    expect(open(second, "instance_settings:cookieSecret")).toBe("the cookie secret");
  });

  it("refuses another key, another row's context, a changed text and plain text", () => {
    const sealed = seal("a private key", "signing_keys:kid1");
    expect(() => sealer(randomBytes(32)).open(sealed, "signing_keys:kid1")).toThrow(WrongSecretKey);
    expect(() => open(sealed, "signing_keys:kid2")).toThrow(WrongSecretKey);
    const body = sealed.slice("sealed:v1:".length);
    const flipped = `sealed:v1:${body.slice(0, 20)}${body[20] === "A" ? "B" : "A"}${body.slice(21)}`;
    expect(() => open(flipped, "signing_keys:kid1")).toThrow(WrongSecretKey);
    expect(() => open("sealed:v1:AAAA", "signing_keys:kid1")).toThrow(WrongSecretKey);
    expect(() => open("a private key", "signing_keys:kid1")).toThrow(WrongSecretKey);
  });
});
