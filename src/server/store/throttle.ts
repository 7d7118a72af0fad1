import { sql } from "kysely";
import type { Database } from "./database.ts";

// Leaky buckets: each reserved unit adds one, and the level drains continuously at `ratePerMs`, so
// there is no window boundary at which an attacker gets a fresh allowance. A unit is reserved before
// the work it guards, in one conditional statement, so that requests arriving at the same moment on
// any number of instances can never take more than the limit between them.

export interface Bucket {
  key: string;
  limit: number;
  /** How fast the level drains; 0 for a count that never drains (it ends with what it counts). */
  ratePerMs: number;
}

/** The level of the stored bucket at `now` (typed casts: PostgreSQL must not guess the parameters). */
const drainedLevel = (now: number, ratePerMs: number) => {
  const drained = sql`attempt_counters.level - (cast(${now} as bigint) - attempt_counters.updated_at) * cast(${ratePerMs} as double precision)`;
  // PostgreSQL may send a computed number as a string.
  return sql<number | string>`case when ${drained} > 0 then ${drained} else 0 end`;
};

/**
 * Takes one unit from the bucket if it has room, atomically. Returns the bucket's new level, or
 * undefined when it was full and nothing was taken.
 */
export async function reserveUnit(db: Database, bucket: Bucket, now: number): Promise<number | undefined> {
  const level = drainedLevel(now, bucket.ratePerMs);
  const row = await db
    .insertInto("attempt_counters")
    .values({ key: bucket.key, level: 1, updated_at: now })
    .onConflict((conflict) =>
      conflict
        .column("key")
        .doUpdateSet({ level: sql<number>`${level} + 1`, updated_at: now })
        .where(sql<boolean>`${level} + 1 <= cast(${bucket.limit} as double precision)`),
    )
    .returning("level")
    .executeTakeFirst();
  return row === undefined ? undefined : row.level;
}

/** Gives back a unit taken by {@link reserveUnit} (the work it guarded turned out legitimate). */
export async function releaseUnit(db: Database, bucket: Bucket, now: number): Promise<void> {
  const level = drainedLevel(now, bucket.ratePerMs);
  await db
    .updateTable("attempt_counters")
    .set({ level: sql<number>`case when ${level} > 1 then ${level} - 1 else 0 end`, updated_at: now })
    .where("key", "=", bucket.key)
    .execute();
}

/** Empties the bucket. */
export async function clearBucket(db: Database, key: string): Promise<void> {
  await db.deleteFrom("attempt_counters").where("key", "=", key).execute();
}

/** The bucket's level now. */
export async function bucketLevel(db: Database, bucket: Bucket, now: number): Promise<number> {
  const row = await db
    .selectFrom("attempt_counters")
    .select(drainedLevel(now, bucket.ratePerMs).as("level"))
    .where("key", "=", bucket.key)
    .executeTakeFirst();
  return Number(row?.level ?? 0);
}

/** Buckets untouched since `before` have drained long ago. */
export async function deleteStaleCounters(db: Database, before: number): Promise<number> {
  const result = await db.deleteFrom("attempt_counters").where("updated_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
