import fs from "node:fs";
import type { Config } from "./config.ts";
import { rotateSigningKeys, rotationSchedule } from "./oidc/key-rotation.ts";
import { loadSigningKeys } from "./oidc/keys.ts";
import { deriveInstanceSecrets } from "./secrets/instance-secrets.ts";
import { loadInstanceKey } from "./secrets/instance-key.ts";
import { openDatabase } from "./store/database.ts";
import { storeVersion } from "./store/migrate.ts";

/** A rotation that cannot start; its message is one line for the person who asked for it. */
class RotationRefused extends Error {
  override name = "RotationRefused";
}

/**
 * `vrata keys rotate`: starts a rotation in the store, which the running instances take up. New keys
 * of every algorithm are published at once and sign after --key-lead-minutes. Returns what was done.
 */
export async function rotateKeysNow(config: Config): Promise<string> {
  const { database, secretKey } = config;
  if (database.kind === "sqlite" && !fs.existsSync(database.file)) {
    throw new RotationRefused(
      `no store at ${database.file}: give the --data of the instance whose keys to rotate`,
    );
  }
  // A rotation never makes an instance key: keys sealed with a new one would open nowhere.
  const source = secretKey.kind === "file" ? { ...secretKey, createIfMissing: false } : secretKey;
  const { sealer } = deriveInstanceSecrets(await loadInstanceKey(source));
  const db = await openDatabase({ database });
  try {
    if ((await storeVersion(db)).pending.length > 0) {
      throw new RotationRefused("the store is not up to date: start this version of Vrata on it first");
    }
    const now = Date.now();
    // Opening the keys proves that this is the instance key the store's keys are sealed with.
    await loadSigningKeys(db, sealer, now);
    const outcome = await rotateSigningKeys(db, sealer, now, rotationSchedule(config).leadMs);
    const from = new Date(outcome.activatesAt).toISOString();
    if (!outcome.started)
      throw new RotationRefused(`a rotation is pending already: its keys sign from ${from}`);
    return (
      `new signing keys ${outcome.kids.join(" and ")} are published and sign from ${from}; ` +
      "running instances take them up within a minute"
    );
  } finally {
    await db.destroy();
  }
}
