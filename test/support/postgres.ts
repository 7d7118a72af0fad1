import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { schemasFileVariable } from "./postgres-schemas.ts";

/** Set in CI: the store suites then run against PostgreSQL as well as SQLite. */
export const postgresUrl = process.env.VRATA_TEST_POSTGRES_URL;

/** The stores a suite runs on, for `describe.each`: SQLite always, PostgreSQL when there is one. */
export const storeEngines: { name: string; url: string | undefined }[] = [
  { name: "SQLite", url: undefined },
  ...(postgresUrl ? [{ name: "PostgreSQL", url: postgresUrl }] : []),
];

/** Runs one statement on its own connection (schema and database set-up). */
export async function runSql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema on the test PostgreSQL server, so test files running at the same time never see
 * each other's rows. `drop` removes it with everything in it: under Vitest once every test file has
 * run (see postgres-schemas.ts), elsewhere at once.
 */
export async function createPostgresSchema(
  url: string,
): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `vrata_test_${randomBytes(6).toString("hex")}`;
  await runSql(url, `CREATE SCHEMA ${schema}`);
  const laterFile = process.env[schemasFileVariable];
  const drop = laterFile
    ? () => fs.promises.appendFile(laterFile, `${url} ${schema}\n`)
    : () => runSql(url, `DROP SCHEMA ${schema} CASCADE`);
  return { schema, drop };
}
