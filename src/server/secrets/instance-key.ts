import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { makeFolder } from "../folders.ts";

// The instance key: the one secret Vrata keeps outside its store. Keys derived from it seal the signing
// keys and instance secrets in the store and hash its tokens, codes and session secrets, so a copy of
// the database alone unlocks nothing.

const keyBytes = 32;
const keyPattern = /^[A-Za-z0-9+/_-]{43}=?$/;

/** Where the instance key comes from: given as a value, or read from a file that may be created. */
export type SecretKeySource =
  { kind: "value"; value: string } | { kind: "file"; file: string; createIfMissing: boolean };

export const keyFormatHint = "32 random bytes in base64, e.g. from `openssl rand -base64 32`";

/** The key written as text (base64 or base64url of 32 bytes), or undefined when it is not one. */
export function decodeInstanceKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!keyPattern.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, "base64");
  return key.length === keyBytes ? key : undefined;
}

/**
 * Writes a new key file readable by its owner only. It appears complete or not at all (written aside,
 * then linked into place), so instances starting together on one data folder agree on one key.
 */
async function createKeyFile(file: string): Promise<void> {
  makeFolder(path.dirname(file));
  const draft = `${file}.${randomBytes(6).toString("hex")}.new`;
  await fs.writeFile(draft, randomBytes(keyBytes).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  try {
    await fs.link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await fs.rm(draft, { force: true });
  }
}

async function readKeyFile(file: string, createIfMissing: boolean): Promise<string> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    if (!createIfMissing || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await createKeyFile(file);
  return fs.readFile(file, "utf8");
}

/** The instance key from its source; a key file in the data folder is generated on first start. */
export async function loadInstanceKey(source: SecretKeySource): Promise<Buffer> {
  const text =
    source.kind === "value" ? source.value : await readKeyFile(source.file, source.createIfMissing);
  const key = decodeInstanceKey(text);
  if (!key) {
    const origin = source.kind === "value" ? "VRATA_SECRET_KEY" : `the secret key file ${source.file}`;
    throw new Error(`${origin} must hold ${keyFormatHint}`);
  }
  return key;
}
