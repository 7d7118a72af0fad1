import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import type { Config } from "../config.ts";
import { migrations } from "./migrations/index.ts";
import type { Schema } from "./schema.ts";
import { openSqlite } from "./sqlite.ts";

export type Database = Kysely<Schema>;

export interface StoreOptions {
  database: Config["database"];
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves with one). */
  postgresSchema?: string;
}

// PostgreSQL returns bigint columns as strings; every bigint we store is a time or count well within
// Number's exact range.
type TypeParserLookup = pg.CustomTypesConfig["getTypeParser"];
const defaultTypeParser: TypeParserLookup = pg.types.getTypeParser;
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid, format) => {
    const parse: unknown = oid === pg.types.builtins.INT8 ? Number : defaultTypeParser(oid, format);
    return parse;
  }) as TypeParserLookup,
};

export function openDatabase({ database, postgresSchema }: StoreOptions): Database {
  if (database.kind === "sqlite") {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    return new Kysely<Schema>({ dialect: new SqliteDialect({ database: openSqlite(database.file) }) });
  }
  const pool = new pg.Pool({
    connectionString: database.url,
    types: pgTypes,
    max: 10,
    ...(postgresSchema ? { options: `-c search_path=${postgresSchema}` } : {}),
  });
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}

/** Brings the schema up to date. Safe to run from several instances at once (the migrator locks). */
export async function migrate(db: Database, postgresSchema?: string): Promise<void> {
  // The migrator's own tables live in the same schema as Vrata's; otherwise it may find another
  // schema's bookkeeping and take this one for migrated.
  const migrator = new Migrator({
    db,
    provider: migrations,
    ...(postgresSchema ? { migrationTableSchema: postgresSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error !== undefined || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ""} failed`, { cause: error });
  }
}
