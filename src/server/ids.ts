import { createHash, randomBytes, randomFillSync } from "node:crypto";
import bs58 from "bs58";

const idLength = 22;

/** A new random identifier: 128 bits in base58, always 22 characters (reference §1.2). */
export function newId(): string {
  // Drawn from a pool of random bytes filled 256 identifiers at a time: asking the system for 16 bytes
  // on every request (each request has an ID) costs more than encoding them.
  if (poolOffset === idPool.length) {
    randomFillSync(idPool);
    poolOffset = 0;
  }
  const bits = idPool.subarray(poolOffset, poolOffset + idBytes);
  poolOffset += idBytes;
  return idOf(bits);
}

const idBytes = 16;
const idPool = Buffer.alloc(idBytes * 256);
let poolOffset = idPool.length;

/**
 * An identifier that always follows from another one and a purpose, of the same shape as {@link newId}:
 * for what exists because the other does and needs no record of its own.
 */
export function derivedId(purpose: string, from: string): string {
  return idOf(createHash("sha256").update(`${purpose}\0${from}`).digest().subarray(0, 16));
}

const idOf = (bits: Uint8Array) => bs58.encode(bits).padStart(idLength, "1");

/** A high-entropy secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}
