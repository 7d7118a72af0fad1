import { randomBytes } from "node:crypto";
import { runSql } from "../test/support/postgres.ts";

// Vrata takes a PostgreSQL schema only from code (StoreOptions.postgresSchema), not from its command
// line, so each PostgreSQL run gets a database of its own and drops it afterwards.

/** Creates an empty database on the server of `url`; returns its URL and how to drop it again. */
export async function createFreshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `vrata_bench_${randomBytes(6).toString("hex")}`;
  await runSql(url, `CREATE DATABASE ${name}`);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  // FORCE ends connections a stopped server may have left behind.
  return { url: fresh.href, drop: () => runSql(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
