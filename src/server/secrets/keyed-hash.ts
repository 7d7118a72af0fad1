import { createHmac, createSecretKey } from "node:crypto";

/** HMAC-SHA256 of a value under one subkey, in base64url: what the store keeps instead of the value. */
export type KeyedHash = (value: string) => string;

export function keyedHash(key: Buffer): KeyedHash {
  // Made once: from raw bytes, every HMAC would make a key object of its own, several times the
  // cost of the hash on the token endpoints' path.
  const keyObject = createSecretKey(key);
  return (value) => createHmac("sha256", keyObject).update(value).digest("base64url");
}
