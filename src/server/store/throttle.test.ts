import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import type { Database } from "./database.ts";
import { bucketLevel, releaseUnits, reserveUnits, type Bucket } from "./throttle.ts";

const reserveUnit = async (db: Database, bucket: Bucket, now: number) =>
  (await reserveUnits(db, [bucket], now))[0];

describe.each(storeEngines)("attempt buckets on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it("fill by reservation, refuse when full, and drain over time", async () => {
    const bucket = { key: "drain", limit: 3, ratePerMs: 1 / 1000 };
    expect(await reserveUnit(store.db, bucket, 10_000)).toBe(1);
    expect(await reserveUnit(store.db, bucket, 10_000)).toBe(2);
    expect(await reserveUnit(store.db, bucket, 10_000)).toBe(3);
    expect(await reserveUnit(store.db, bucket, 10_000)).toBeUndefined();
    expect(await bucketLevel(store.db, bucket, 10_000)).toBe(3);
    expect(await bucketLevel(store.db, bucket, 11_500)).toBeCloseTo(1.5);
    expect(await reserveUnit(store.db, bucket, 11_500)).toBeCloseTo(2.5);
    await releaseUnits(store.db, [bucket], 11_500);
    expect(await bucketLevel(store.db, bucket, 11_500)).toBeCloseTo(1.5);
    expect(await bucketLevel(store.db, bucket, 99_000)).toBe(0);
    expect(await bucketLevel(store.db, { ...bucket, key: "other" }, 12_000)).toBe(0);
  });

  it("never lets simultaneous reservations take more than the limit", async () => {
    const bucket = { key: "race", limit: 10, ratePerMs: 0 };
    const levels = await Promise.all(Array.from({ length: 60 }, () => reserveUnit(store.db, bucket, 20_000)));
    const granted = levels.filter((level) => level !== undefined);
    expect(granted).toHaveLength(10);
    expect(granted.toSorted((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await bucketLevel(store.db, bucket, 20_000)).toBe(10);
  });

  it("reserves in several buckets at once, each with its own limit and rate", async () => {
    const steady = { key: "several-b", limit: 2, ratePerMs: 0 };
    const draining = { key: "several-a", limit: 5, ratePerMs: 1 / 1000 };
    expect(await reserveUnits(store.db, [steady, draining], 30_000)).toEqual([1, 1]);
    expect(await reserveUnits(store.db, [steady, draining], 30_000)).toEqual([2, 2]);
    // The full bucket takes nothing; the other still gets its unit.
    expect(await reserveUnits(store.db, [steady, draining], 31_000)).toEqual([undefined, 2]);
    expect(await bucketLevel(store.db, steady, 31_000)).toBe(2);
    expect(await bucketLevel(store.db, draining, 31_000)).toBeCloseTo(2);
    await releaseUnits(store.db, [steady, draining], 31_000);
    expect(await bucketLevel(store.db, steady, 31_000)).toBe(1);
    expect(await bucketLevel(store.db, draining, 31_000)).toBeCloseTo(1);
  });

  it("never lets simultaneous reservations of several buckets take more than each limit", async () => {
    const small = { key: "race-small", limit: 4, ratePerMs: 0 };
    const large = { key: "race-large", limit: 9, ratePerMs: 0 };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        reserveUnits(store.db, index % 2 === 0 ? [small, large] : [large, small], 40_000),
      ),
    );
    const granted = (bucket: Bucket) =>
      results.flatMap((levels, index) => {
        const level = levels[(index % 2 === 0) === (bucket === small) ? 0 : 1];
        return level === undefined ? [] : [level];
      });
    expect(granted(small).toSorted((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(granted(large).toSorted((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
