import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { bucketLevel, releaseUnit, reserveUnit } from "./throttle.ts";

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
    await releaseUnit(store.db, bucket, 11_500);
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
});
