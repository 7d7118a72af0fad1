import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from "kysely";

const maxPreparedStatements = 500;

/** Runs a compiled query at once, or declines with undefined. */
export type DirectRunner = (query: CompiledQuery) => QueryResult<unknown> | undefined;

export interface SqliteStore {
  /** What Kysely's SQLite dialect drives. */
  database: SqliteDatabase;
  /**
   * Runs a compiled query at once, as Kysely would, unless a transaction holds the connection (then
   * undefined: the query must wait for it through Kysely). Skips the connection lock and the promises
   * Kysely wraps around every query, which cost more than SQLite takes to find a row by its key.
   */
  runUnlessInTransaction: DirectRunner;
}

/**
 * Kysely's SQLite driver begins transactions deferred, as readers: one that reads and then writes fails
 * at once with "database is locked" when another process wrote in between, whatever busy_timeout
 * says, since its snapshot is stale. Vrata's transactions are all for writing, so they begin as
 * writers: a second one waits for the first to end (up to busy_timeout) and then reads what it wrote.
 * Queries outside transactions are unaffected, and readers never wait for writers (WAL).
 */
class WritingTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/** Kysely's SQLite dialect whose transactions begin as writers. */
export class WritingTransactionsDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;

  constructor(database: SqliteDatabase) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return new WritingTransactionsDriver({ database: this.#database });
  }
}

/**
 * Lets Kysely's SQLite dialect drive Node's built-in `node:sqlite`: Kysely passes parameters as one
 * array and asks whether a statement returns rows; node:sqlite takes them spread and says so through
 * its column list.
 */
export function openSqlite(file: string): SqliteStore {
  const database = new DatabaseSync(file);
  // secure_delete zeroes what a deletion frees, so a deleted account's data leaves the file (see
  // store/account-deletion.ts, which also empties the WAL after such a purge).
  // WAL lets readers go on while a write is in progress; busy_timeout waits out a concurrent writer
  // instead of failing at once, and comes first since asking for WAL waits for writers too. A 32 MiB page cache (the default is 2 MiB) keeps the token tables'
  // index pages in memory, so a token write does not read them back from the file.
  database.exec(
    "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32768; PRAGMA secure_delete = ON;",
  );
  // Kysely sends the same SQL text for the same query shape: preparing it once saves the parse and
  // plan on every call. Bounded, since a query with many IN values makes a new text per count.
  const prepared = new Map<string, SqliteStatement>();
  const args = (parameters: readonly unknown[]) => parameters as SQLInputValue[];
  const wrap = (statement: StatementSync): SqliteStatement => ({
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...args(parameters)),
    run: (parameters) => statement.run(...args(parameters)),
    iterate: (parameters) => statement.iterate(...args(parameters)),
  });
  const prepare = (sql: string): SqliteStatement => {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= maxPreparedStatements) prepared.clear();
      statement = wrap(database.prepare(sql));
      prepared.set(sql, statement);
    }
    return statement;
  };
  return {
    database: { close: () => database.close(), prepare },
    runUnlessInTransaction: ({ sql, parameters }: CompiledQuery) => {
      if (database.isTransaction) return undefined;
      const statement = prepare(sql);
      if (statement.reader) return { rows: statement.all(parameters) };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    },
  };
}
