import type { Database } from "./database.ts";

/** Failures counted for `key` in the window that started at `windowStart` (0 outside it). */
export async function failureCount(db: Database, key: string, windowStart: number): Promise<number> {
  const row = await db
    .selectFrom("attempt_counters")
    .select(["count", "window_start"])
    .where("key", "=", key)
    .executeTakeFirst();
  return row && row.window_start === windowStart ? row.count : 0;
}

export async function countFailure(db: Database, key: string, windowStart: number): Promise<void> {
  await db
    .insertInto("attempt_counters")
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet((eb) => ({
        count: eb
          .case()
          .when("attempt_counters.window_start", "=", windowStart)
          .then(eb("attempt_counters.count", "+", 1))
          .else(1)
          .end(),
        window_start: windowStart,
      })),
    )
    .execute();
}

export async function deleteStaleCounters(db: Database, before: number): Promise<number> {
  const result = await db
    .deleteFrom("attempt_counters")
    .where("window_start", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
