import type { Database } from "./database.ts";

/**
 * Returns the stored value for `key`, storing `create()` first if there is none. When several
 * instances start at once the first insert wins and everyone reads that one.
 */
export async function settingOrCreate(
  db: Database,
  key: string,
  create: () => string | Promise<string>,
): Promise<string> {
  const existing = await db
    .selectFrom("instance_settings")
    .select("value")
    .where("key", "=", key)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto("instance_settings")
    .values({ key, value: await create() })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  const stored = await db
    .selectFrom("instance_settings")
    .select("value")
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
  return stored.value;
}

export async function updateSetting(db: Database, key: string, value: string): Promise<void> {
  await db.updateTable("instance_settings").set({ value }).where("key", "=", key).execute();
}

export interface StoredSigningKey {
  kid: string;
  alg: string;
  privateJwk: string;
}

export async function activeSigningKeys(db: Database): Promise<StoredSigningKey[]> {
  const rows = await db
    .selectFrom("signing_keys")
    .select(["kid", "alg", "private_jwk"])
    .where("retired_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("kid")
    .execute();
  return rows.map((row) => ({ kid: row.kid, alg: row.alg, privateJwk: row.private_jwk }));
}

export async function insertSigningKey(db: Database, key: StoredSigningKey, now: number): Promise<void> {
  await db
    .insertInto("signing_keys")
    .values({ kid: key.kid, alg: key.alg, private_jwk: key.privateJwk, created_at: now, retired_at: null })
    .onConflict((conflict) => conflict.column("kid").doNothing())
    .execute();
}

export async function updateSigningKeyJwk(db: Database, kid: string, privateJwk: string): Promise<void> {
  await db.updateTable("signing_keys").set({ private_jwk: privateJwk }).where("kid", "=", kid).execute();
}
