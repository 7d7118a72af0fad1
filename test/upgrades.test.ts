import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { routes } from "../src/common/routes.ts";
import { openDatabase, type Database } from "../src/server/store/database.ts";
import { migrate, MigrationFailed } from "../src/server/store/migrate.ts";
import { migrations } from "../src/server/store/migrations/index.ts";
import { createPostgresSchema, storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// What an operator sees of migrations during an upgrade: each one named and timed, a failing one
// named with the database's reason, and an instance of the previous version that keeps serving on
// a store the new version has migrated while telling its load balancer it is outdated.

/** A store that has never been migrated. */
async function emptyStore(
  url: string | undefined,
): Promise<{ db: Database; schema?: string; drop: () => Promise<void> }> {
  if (url) {
    const { schema, drop } = await createPostgresSchema(url);
    const db = await openDatabase({ database: { kind: "postgres", url }, postgresSchema: schema });
    return { db, schema, drop: async () => (await db.destroy(), await drop()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-upgrade-"));
  const db = await openDatabase({ database: { kind: "sqlite", file: path.join(dir, "vrata.sqlite") } });
  return { db, drop: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })) };
}

const readiness = async (server: TestServer) => {
  const response = await fetch(server.url + routes.HealthReady.path);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe.each(storeEngines)("migrations on $name", ({ url }) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.dispose();
  });

  it("names and times each migration it runs, and names a failing one with the database's reason", async () => {
    const names = Object.keys(await migrations.getMigrations());
    const failing = "0014-identity-search-words";
    const store = await emptyStore(url);
    try {
      // A table in the way of the migration that makes it: the database refuses to make it again.
      await sql`CREATE TABLE identity_search_words (word text)`.execute(store.db);
      const logged: string[] = [];
      const run = migrate(store.db, store.schema, (message) => logged.push(message));

      await expect(run).rejects.toBeInstanceOf(MigrationFailed);
      await expect(run).rejects.toThrow(
        new RegExp(`^database migration ${failing} failed: .*already exists`),
      );
      const before = names.slice(0, names.indexOf(failing));
      expect(logged.map((line) => line.replace(/\d+ ms$/, "N ms"))).toEqual(
        before.map((name) => `database migration ${name} done in N ms`),
      );
    } finally {
      await store.drop();
    }
  });

  it("keeps an instance of the previous version serving on a store a newer version migrated, outdated at readiness", async () => {
    const server = await startTestServer(url ? { postgresUrl: url } : {});
    servers.push(server);
    expect(await readiness(server)).toEqual({ status: 200, body: { status: "ok", database: "reachable" } });

    // What a newer version leaves behind: a migration this version does not know.
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(
      server.db,
    );
    const outdated = {
      status: 503,
      body: { status: "outdated", database: "reachable", newer: ["9999-from-a-newer-version"] },
    };
    expect(await readiness(server)).toEqual(outdated);

    // Started again (a crash, a deployment that has not reached it yet), it serves without migrating.
    const restarted = await server.restart();
    servers[servers.indexOf(server)] = restarted;
    expect(await readiness(restarted)).toEqual(outdated);
    expect((await fetch(restarted.url + "/context.json")).status).toBe(200);
  });
});
