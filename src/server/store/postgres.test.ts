import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { postgresUrl } from "../../../test/support/postgres.ts";
import { storeEngines } from "../../../test/support/stores.ts";

describe.skipIf(postgresUrl === undefined)("PostgreSQL connections", () => {
  it("prepare a query they run again and answer each run with its own values", async () => {
    const engine = storeEngines.find(({ name }) => name === "PostgreSQL");
    if (!engine) throw new Error("no PostgreSQL store");
    const store = await engine.open();
    try {
      await store.db.connection().execute(async (connection) => {
        await connection
          .insertInto("instance_settings")
          .values([
            { key: "prepared-a", value: "1" },
            { key: "prepared-b", value: "2" },
          ])
          .execute();
        const valueOf = async (key: string) =>
          (
            await connection
              .selectFrom("instance_settings")
              .select("value")
              .where("key", "=", key)
              .executeTakeFirst()
          )?.value;
        expect(await valueOf("prepared-a")).toBe("1");
        expect(await valueOf("prepared-b")).toBe("2");
        expect(await valueOf("prepared-c")).toBeUndefined();

        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements`.execute(connection);
        const lookups = rows.filter(({ statement }) => statement.startsWith('select "value"'));
        expect(lookups).toHaveLength(1);
      });
    } finally {
      await store.dispose();
    }
  });

  it("show the migrator the tables of their own schema only, while other stores' schemas hold tables too", async () => {
    const engine = storeEngines.find(({ name }) => name === "PostgreSQL");
    if (!engine) throw new Error("no PostgreSQL store");
    const [store, other] = await Promise.all([engine.open(), engine.open()]);
    try {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
      const own = rows[0]?.schema;
      const tables = await store.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([own]));
      expect(tables.map((table) => table.name)).toEqual(
        expect.arrayContaining(["kysely_migration", "kysely_migration_lock", "instance_settings"]),
      );
      // Asked as any other caller asks, the migrator's own bookkeeping is left out.
      const named = (await store.db.introspection.getTables()).map((table) => table.name);
      expect(named).toContain("instance_settings");
      expect(named).not.toContain("kysely_migration");
      const otherTables = await other.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(otherTables.map((table) => table.schema)).not.toContain(own);
    } finally {
      await Promise.all([store.dispose(), other.dispose()]);
    }
  });
});
