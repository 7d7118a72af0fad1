import { randomBytes } from "node:crypto";
import bs58 from "bs58";

const idLength = 22;

/** A new random identifier: 128 bits in base58, always 22 characters (reference §1.2). */
export function newId(): string {
  return bs58.encode(randomBytes(16)).padStart(idLength, "1");
}

/** A high-entropy secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}
