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

/** The stored value for `key`, if there is one. */
export async function findSetting(db: Database, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("instance_settings")
    .select("value")
    .where("key", "=", key)
    .executeTakeFirst();
  return row?.value;
}
