import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, openDatabase, type Database } from "../../src/server/store/database.ts";
import { createPostgresSchema, postgresUrl } from "./postgres.ts";

export interface TestStore {
  db: Database;
  dispose: () => Promise<void>;
}

async function sqliteStore(): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-store-"));
  const db = await openDatabase({ database: { kind: "sqlite", file: path.join(dir, "vrata.sqlite") } });
  await migrate(db);
  return {
    db,
    dispose: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(url: string): Promise<TestStore> {
  const { schema, drop } = await createPostgresSchema(url);
  const db = await openDatabase({ database: { kind: "postgres", url }, postgresSchema: schema });
  await migrate(db, schema);
  return {
    db,
    dispose: async () => {
      await db.destroy();
      await drop();
    },
  };
}

function engines(url: string | undefined): { name: string; open: () => Promise<TestStore> }[] {
  const sqlite = { name: "SQLite", open: sqliteStore };
  return url === undefined ? [sqlite] : [sqlite, { name: "PostgreSQL", open: () => postgresStore(url) }];
}

/** The engines every store suite runs on: SQLite always, PostgreSQL when a test server is given. */
export const storeEngines = engines(postgresUrl);
