import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";

const settingsWithPrefix = preparedQuery((db: Database, prefix: string, fallback: string) =>
  db
    .selectFrom("instance_settings")
    .select(["key", "value"])
    .where((eb) => eb.or([eb("key", "like", prefix), eb("value", "=", fallback)]))
    .where("key", "!=", "a fixed value")
    .orderBy("key"),
);

const writeSetting = preparedQuery((db: Database, key: string, value: string) =>
  db
    .insertInto("instance_settings")
    .values({ key, value })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value })),
);

describe.each(storeEngines)("prepared queries on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it("run with each call's arguments, the same argument in several places included", async () => {
    await writeSetting(store.db, "prepared-a", "1");
    await writeSetting(store.db, "prepared-b", "2");
    await writeSetting(store.db, "prepared-a", "3");
    const keys = async (prefix: string, fallback: string) =>
      (await settingsWithPrefix(store.db, prefix, fallback)).rows.map((row) => `${row.key}=${row.value}`);
    expect(await keys("prepared-%", "none")).toEqual(["prepared-a=3", "prepared-b=2"]);
    expect(await keys("nothing-%", "2")).toEqual(["prepared-b=2"]);
    expect(await keys("nothing-%", "none")).toEqual([]);
  });

  it("wait for a transaction in progress rather than join it", async () => {
    let outside: Promise<unknown> | undefined;
    const rolledBack = store.db.transaction().execute(async (trx) => {
      await trx.insertInto("instance_settings").values({ key: "prepared-inside", value: "1" }).execute();
      outside = writeSetting(store.db, "prepared-outside", "1");
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error("roll back");
    });
    await expect(rolledBack).rejects.toThrow("roll back");
    await outside;
    const keys = (await settingsWithPrefix(store.db, "prepared-%side", "none")).rows.map((row) => row.key);
    expect(keys).toEqual(["prepared-outside"]);
  });

  it("refuse an argument that is not a parameter of the query", async () => {
    const byColumn = preparedQuery((db: Database, column: string) =>
      db
        .selectFrom("instance_settings")
        .select("key")
        .orderBy(column as "key"),
    );
    await expect(byColumn(store.db, "key")).rejects.toThrow(/argument 0/);
  });
});
