import fs from "node:fs";
import path from "node:path";
import { Kysely, type LogEvent } from "kysely";
import type { Config } from "../config.ts";
import { statementOf, storeQueries } from "../operations/metrics.ts";
import type { Schema } from "./schema.ts";
import { runDirectly } from "./prepared.ts";
import { openSqlite, WritingTransactionsDialect } from "./sqlite.ts";
import { makeFolder } from "../folders.ts";

export type Database = Kysely<Schema>;

export interface StoreOptions {
  database: Config["database"];
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves with one). */
  postgresSchema?: string;
  /**
   * Told when PostgreSQL ends a connection (a restart, an administrator): the pool has let it go and
   * opens another when one is needed. Without it, such an end shows only as the next query's failure.
   */
  onConnectionLost?: (error: Error) => void;
}

/**
 * Only the owner may read the database: its folder is made 0700 and the file 0600, which SQLite
 * gives its -wal and -shm files too. A file an earlier version made readable to others is narrowed.
 */
function ownerOnlyDatabaseFile(file: string): void {
  makeFolder(path.dirname(file));
  fs.closeSync(fs.openSync(file, "a", 0o600));
  for (const owned of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(owned)) fs.chmodSync(owned, 0o600);
  }
}

/** Every query's time goes to the store's latency metric. */
function timeQuery(event: LogEvent): void {
  storeQueries.observe({ statement: statementOf(event.query.sql) }, event.queryDurationMillis / 1000);
}

/** Opens the store; the PostgreSQL driver is loaded only when PostgreSQL is the store. */
export async function openDatabase({
  database,
  postgresSchema,
  onConnectionLost = () => undefined,
}: StoreOptions): Promise<Database> {
  if (database.kind === "sqlite") {
    ownerOnlyDatabaseFile(database.file);
    const store = openSqlite(database.file);
    const db = new Kysely<Schema>({
      dialect: new WritingTransactionsDialect(store.database),
      log: timeQuery,
    });
    runDirectly(db, store.runUnlessInTransaction);
    return db;
  }
  const { postgresDialect } = await import("./postgres.ts");
  return new Kysely<Schema>({
    dialect: postgresDialect({ url: database.url, schema: postgresSchema, onConnectionLost }),
    log: timeQuery,
  });
}

/** Runs `work` in the caller's transaction when `db` is one, else in a transaction of its own. */
export function inTransaction<T>(db: Database, work: (executor: Database) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
