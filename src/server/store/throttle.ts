import { sql } from "kysely";
import type { Database } from "./database.ts";

// Leaky buckets: each failure adds one, and the level drains continuously at `ratePerMs`, so there
// is no window boundary at which an attacker gets a fresh allowance.

/** The level of the stored bucket at `now` (typed casts: PostgreSQL must not guess the parameters). */
const drainedLevel = (now: number, ratePerMs: number) => {
  const drained = sql`attempt_counters.level - (cast(${now} as bigint) - attempt_counters.updated_at) * cast(${ratePerMs} as double precision)`;
  return sql<number | string>`case when ${drained} > 0 then ${drained} else 0 end`;
};

/** The bucket's level now. */
export async function attemptLevel(
  db: Database,
  key: string,
  now: number,
  ratePerMs: number,
): Promise<number> {
  const row = await db
    .selectFrom("attempt_counters")
    .select(drainedLevel(now, ratePerMs).as("level"))
    .where("key", "=", key)
    .executeTakeFirst();
  // PostgreSQL may send a computed number as a string.
  return Number(row?.level ?? 0);
}

/** Adds a failure to the bucket, atomically, so concurrent instances never lose one. */
export async function addAttempt(db: Database, key: string, now: number, ratePerMs: number): Promise<void> {
  await db
    .insertInto("attempt_counters")
    .values({ key, level: 1, updated_at: now })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({
        level: sql<number>`${drainedLevel(now, ratePerMs)} + 1`,
        updated_at: now,
      }),
    )
    .execute();
}

/** Buckets untouched since `before` have drained long ago. */
export async function deleteStaleCounters(db: Database, before: number): Promise<number> {
  const result = await db.deleteFrom("attempt_counters").where("updated_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
