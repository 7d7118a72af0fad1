import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { startExpiryCleanup } from "./cleanup.ts";
import { recordSamlAssertionUse } from "./saml-assertions.ts";

const silentLog = { debug: () => undefined, warn: () => undefined };

describe.each(storeEngines)("accepted SAML assertions on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it("are recorded once until they expire, then count as never used", async () => {
    expect(await recordSamlAssertionUse(store.db, "once", 20_000, 10_000)).toBe(true);
    expect(await recordSamlAssertionUse(store.db, "once", 20_000, 10_000)).toBe(false);
    expect(await recordSamlAssertionUse(store.db, "once", 30_000, 19_999)).toBe(false);
    expect(await recordSamlAssertionUse(store.db, "once", 30_000, 20_000)).toBe(true);
    expect(await recordSamlAssertionUse(store.db, "once", 40_000, 29_999)).toBe(false);
  });

  it("let one of simultaneous uses of an assertion be the first", async () => {
    const now = Date.now();
    const firsts = await Promise.all(
      Array.from({ length: 20 }, () => recordSamlAssertionUse(store.db, "race", now + 60_000, now)),
    );
    expect(firsts.filter(Boolean)).toHaveLength(1);
  });

  it("are removed by the background cleanup once expired", async () => {
    const now = Date.now();
    await recordSamlAssertionUse(store.db, "expired", now - 1, now - 60_000);
    await recordSamlAssertionUse(store.db, "live", now + 60_000, now);
    const ids = async () =>
      (
        await store.db
          .selectFrom("saml_assertions")
          .select("id")
          .where("id", "in", ["expired", "live"])
          .execute()
      )
        .map((row) => row.id)
        .toSorted();
    expect(await ids()).toEqual(["expired", "live"]);
    const { stop } = startExpiryCleanup(store.db, silentLog);
    try {
      await expect.poll(ids).toEqual(["live"]);
    } finally {
      stop();
    }
  });
});
