import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Lets Kysely's SQLite dialect drive Node's built-in `node:sqlite`: Kysely passes parameters as one
 * array and asks whether a statement returns rows; node:sqlite takes them spread and says so through
 * its column list.
 */
export function openSqlite(file: string): SqliteDatabase {
  const database = new DatabaseSync(file);
  // WAL lets readers go on while a write is in progress; busy_timeout waits out a concurrent writer
  // instead of failing at once.
  database.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;",
  );
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const statement = database.prepare(sql);
      const args = (parameters: readonly unknown[]) => parameters as SQLInputValue[];
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...args(parameters)),
        run: (parameters) => statement.run(...args(parameters)),
        iterate: (parameters) => statement.iterate(...args(parameters)),
      };
    },
  };
}
