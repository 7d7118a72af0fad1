import { sql, type RawBuilder } from "kysely";
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

/**
 * The level of the stored bucket at `now`, draining at `ratePerMs` (typed casts: PostgreSQL must not
 * guess the parameters).
 */
const drainedLevel = (now: number, ratePerMs: RawBuilder<number>) => {
  const drained = sql`attempt_counters.level - (cast(${now} as bigint) - attempt_counters.updated_at) * ${ratePerMs}`;
  // PostgreSQL may send a computed number as a string.
  return sql<number | string>`case when ${drained} > 0 then ${drained} else 0 end`;
};

const fixedRate = (ratePerMs: number) => sql<number>`cast(${ratePerMs} as double precision)`;

/** One setting of each bucket, chosen by the row's key, in a statement about several buckets. */
const perBucket = (buckets: readonly Bucket[], setting: (bucket: Bucket) => number) =>
  sql<number>`case attempt_counters.key ${sql.join(
    buckets.map((bucket) => sql`when ${bucket.key} then cast(${setting(bucket)} as double precision)`),
    sql` `,
  )} end`;

/**
 * Statements about several buckets lock their rows in key order, so that two of them sharing buckets
 * cannot each hold a row the other waits for.
 */
const inLockOrder = (buckets: readonly Bucket[]) =>
  [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/**
 * Takes one unit from each bucket that has room, atomically per bucket, in one statement. Returns each
 * bucket's new level in the order given, or undefined for a bucket that was full (nothing taken from it).
 */
export async function reserveUnits(
  db: Database,
  buckets: readonly Bucket[],
  now: number,
): Promise<(number | undefined)[]> {
  const ordered = inLockOrder(buckets);
  const level = drainedLevel(
    now,
    perBucket(ordered, (bucket) => bucket.ratePerMs),
  );
  const rows = await db
    .insertInto("attempt_counters")
    .values(ordered.map((bucket) => ({ key: bucket.key, level: 1, updated_at: now })))
    .onConflict((conflict) =>
      conflict
        .column("key")
        .doUpdateSet({ level: sql<number>`${level} + 1`, updated_at: now })
        .where(sql<boolean>`${level} + 1 <= ${perBucket(ordered, (bucket) => bucket.limit)}`),
    )
    .returning(["key", "level"])
    .execute();
  const levels = new Map(rows.map((row) => [row.key, row.level]));
  return buckets.map((bucket) => levels.get(bucket.key));
}

/**
 * Gives back a unit of each bucket, taken by {@link reserveUnits} (the work turned out legitimate), and
 * empties the `emptied` ones, in one statement.
 */
export async function releaseUnits(
  db: Database,
  buckets: readonly Bucket[],
  now: number,
  emptied: readonly Bucket[] = [],
): Promise<void> {
  if (buckets.length === 0 && emptied.length === 0) return;
  // An upsert rather than an update, because it takes the rows' locks in the order given (the
  // reservations' order); a bucket already forgotten comes back empty.
  const ordered = inLockOrder([...buckets, ...emptied]);
  const level = drainedLevel(
    now,
    perBucket(ordered, (bucket) => bucket.ratePerMs),
  );
  const released = sql<number>`case when ${level} > 1 then ${level} - 1 else 0 end`;
  const emptiedKeys = sql.join(emptied.map((bucket) => bucket.key));
  await db
    .insertInto("attempt_counters")
    .values(ordered.map((bucket) => ({ key: bucket.key, level: 0, updated_at: now })))
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({
        level:
          emptied.length === 0
            ? released
            : sql<number>`case when attempt_counters.key in (${emptiedKeys}) then 0 else ${released} end`,
        updated_at: now,
      }),
    )
    .execute();
}

/** The bucket's level now. */
export async function bucketLevel(db: Database, bucket: Bucket, now: number): Promise<number> {
  const row = await db
    .selectFrom("attempt_counters")
    .select(drainedLevel(now, fixedRate(bucket.ratePerMs)).as("level"))
    .where("key", "=", bucket.key)
    .executeTakeFirst();
  return Number(row?.level ?? 0);
}

/** Buckets untouched since `before` have drained long ago. */
export async function deleteStaleCounters(db: Database, before: number): Promise<number> {
  const result = await db.deleteFrom("attempt_counters").where("updated_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
