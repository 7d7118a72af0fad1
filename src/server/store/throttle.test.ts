import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { addAttempt, attemptLevel } from "./throttle.ts";

describe.each(storeEngines)("attempt buckets on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it("fill with failures and drain over time", async () => {
    const rate = 1 / 1000;
    for (let i = 0; i < 3; i++) await addAttempt(store.db, "k", 10_000, rate);
    expect(await attemptLevel(store.db, "k", 10_000, rate)).toBe(3);
    expect(await attemptLevel(store.db, "k", 11_500, rate)).toBeCloseTo(1.5);
    expect(await attemptLevel(store.db, "k", 99_000, rate)).toBe(0);
    await addAttempt(store.db, "k", 12_000, rate);
    expect(await attemptLevel(store.db, "k", 12_000, rate)).toBe(2);
    expect(await attemptLevel(store.db, "other", 12_000, rate)).toBe(0);
  });
});
