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
});
