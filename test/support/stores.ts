import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely/migration";
import { openDatabase, type Database } from "../../src/server/store/database.ts";
import { migrate } from "../../src/server/store/migrate.ts";
import { migrations } from "../../src/server/store/migrations/index.ts";
import { createPostgresSchema, postgresUrl } from "./postgres.ts";

export interface TestStore {
  db: Database;
  /** Runs the migrations it has not run yet. */
  migrate: () => Promise<void>;
  dispose: () => Promise<void>;
}

/** Brings a store up to date, or only up to the migration named (to test the ones after it). */
async function migrateUpTo(db: Database, upTo: string | undefined, postgresSchema?: string): Promise<void> {
  if (upTo === undefined) return migrate(db, postgresSchema);
  const migrator = new Migrator({
    db,
    provider: migrations,
    ...(postgresSchema ? { migrationTableSchema: postgresSchema } : {}),
  });
  const { error } = await migrator.migrateTo(upTo);
  if (error !== undefined) throw new Error(`migrating up to ${upTo} failed`, { cause: error });
}

async function sqliteStore(upTo?: string): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-store-"));
  const db = await openDatabase({ database: { kind: "sqlite", file: path.join(dir, "vrata.sqlite") } });
  await migrateUpTo(db, upTo);
  return {
    db,
    migrate: () => migrate(db),
    dispose: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(url: string, upTo?: string): Promise<TestStore> {
  const { schema, drop } = await createPostgresSchema(url);
  const db = await openDatabase({ database: { kind: "postgres", url }, postgresSchema: schema });
  await migrateUpTo(db, upTo, schema);
  return {
    db,
    migrate: () => migrate(db, schema),
    dispose: async () => {
      await db.destroy();
      await drop();
    },
  };
}

function engines(url: string | undefined): { name: string; open: (upTo?: string) => Promise<TestStore> }[] {
  const sqlite = { name: "SQLite", open: sqliteStore };
  return url === undefined
    ? [sqlite]
    : [sqlite, { name: "PostgreSQL", open: (upTo?: string) => postgresStore(url, upTo) }];
}

/** The engines every store suite runs on: SQLite always, PostgreSQL when a test server is given. */
export const storeEngines = engines(postgresUrl);
