import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from "node:crypto";

// Sealed values are AES-256-GCM ciphertexts with their nonce and tag, marked with the format's
// version so that a later format can be told apart and the values of earlier versions, stored in
// plain text, can be recognized and sealed. The context (which row the value belongs to) is
// authenticated too: a sealed value moved to another row does not open.

const versionPrefix = "sealed:v1:";
const nonceBytes = 12;
const tagBytes = 16;

/** A sealed value did not open: the store was sealed with another instance key, or changed. */
export class WrongSecretKey extends Error {
  override name = "WrongSecretKey";
  constructor() {
    super(
      "the store's keys and secrets were sealed with another secret key: start with the key they were sealed with (--secret-key-file or VRATA_SECRET_KEY)",
    );
  }
}

export const isSealed = (stored: string): boolean => stored.startsWith(versionPrefix);

export interface Sealer {
  seal: (plaintext: string, context: string) => string;
  open: (sealed: string, context: string) => string;
}

export function sealer(rawKey: Buffer): Sealer {
  const key = createSecretKey(rawKey);
  return {
    seal: (plaintext, context) => {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(Buffer.from(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return versionPrefix + Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString("base64url");
    },
    open: (sealed, context) => {
      if (!isSealed(sealed)) throw new WrongSecretKey();
      const bytes = Buffer.from(sealed.slice(versionPrefix.length), "base64url");
      if (bytes.length < nonceBytes + tagBytes) throw new WrongSecretKey();
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, nonceBytes))
        .setAAD(Buffer.from(context))
        .setAuthTag(bytes.subarray(bytes.length - tagBytes));
      try {
        const ciphertext = bytes.subarray(nonceBytes, bytes.length - tagBytes);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
      } catch {
        throw new WrongSecretKey();
      }
    },
  };
}
