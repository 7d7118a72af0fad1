import type { Database } from "../store/database.ts";
import { settingOrCreate, updateSetting } from "../store/instance.ts";
import type { Sealer } from "./sealing.ts";
import { openStoredSecret } from "./stored-secret.ts";

/** An instance secret kept sealed in the store, created on first start as `settingOrCreate` does. */
export async function sealedSettingOrCreate(
  db: Database,
  sealer: Sealer,
  key: string,
  create: () => string | Promise<string>,
): Promise<string> {
  const context = `instance_settings:${key}`;
  const stored = await settingOrCreate(db, key, async () => sealer.seal(await create(), context));
  return openStoredSecret(sealer, stored, context, (sealed) => updateSetting(db, key, sealed));
}
