import { hash, timingSafeEqual } from "node:crypto";
import { newSecret } from "../ids.ts";

// Client secrets are 256 random bits: a SHA-256 hash is enough to keep a database dump from
// revealing a usable one, and checking it costs no argon2 per request (design.md §5).

/** The prefix lets secret scanners recognize a leaked Vrata client secret. */
const prefix = "vcs-";

export function newClientSecret(): string {
  return prefix + newSecret();
}

export function hashClientSecret(secret: string): string {
  return hash("sha256", secret, "base64url");
}

export function clientSecretMatches(storedHash: string, presented: string): boolean {
  const expected = Buffer.from(storedHash, "base64url");
  const actual = hash("sha256", presented, "buffer");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
