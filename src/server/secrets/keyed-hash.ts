import { createHmac } from "node:crypto";

/** HMAC-SHA256 of a value under one subkey, in base64url: what the store keeps instead of the value. */
export type KeyedHash = (value: string) => string;

export function keyedHash(key: Buffer): KeyedHash {
  return (value) => createHmac("sha256", key).update(value).digest("base64url");
}
