import { sql } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import type { Database } from "./database.ts";
import { isStoreUnavailable } from "./errors.ts";
import { migrations } from "./migrations/index.ts";

// Migrations are expand-then-contract (README, Upgrading): a version adds what it needs and stops
// using what it will drop, and only a later version drops it. An instance of the previous version
// therefore keeps working on a store the new version has migrated; it says so at readiness
// ("outdated") so that a load balancer prefers the new instances, and it never migrates backwards.

/** Told of each migration run: its name and how long it took. */
export type MigrationLog = (message: string) => void;

/** The migration of this name failed; the database's own message is the cause. */
export class MigrationFailed extends Error {
  override name = "MigrationFailed";
}

// The migrator's own tables live in the same schema as Vrata's; otherwise it may find another
// schema's bookkeeping and take this one for migrated. Migration names begin with their number, so
// comparing them character by character orders them as the migrator's default (localeCompare) does,
// without loading ICU's collation data into every process that starts.
const migratorOf = (db: Database, provider: MigrationProvider, postgresSchema?: string) =>
  new Migrator({
    db,
    provider,
    nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    ...(postgresSchema ? { migrationTableSchema: postgresSchema } : {}),
  });

/** Where the store stands against this version's migrations. */
export interface StoreVersion {
  /** This version's migrations the store has not run yet (another instance may be running them). */
  pending: string[];
  /** Migrations the store has run that this version does not know: a newer version upgraded it. */
  newer: string[];
}

/** The names of the migrations the store has run, none if it has never been migrated. */
async function executedMigrations(db: Database, postgresSchema?: string): Promise<string[]> {
  const table = sql.table(postgresSchema ? `${postgresSchema}.kysely_migration` : "kysely_migration");
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${table}`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    // PostgreSQL's undefined_table, SQLite's "no such table": a store never migrated.
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === "42P01" || (typeof message === "string" && message.includes("no such table"))) return [];
    throw error;
  }
}

export async function storeVersion(db: Database, postgresSchema?: string): Promise<StoreVersion> {
  const known = Object.keys(await migrations.getMigrations());
  const executed = new Set(await executedMigrations(db, postgresSchema));
  return {
    pending: known.filter((name) => !executed.has(name)),
    newer: [...executed].filter((name) => !known.includes(name)).sort(),
  };
}

/** This version's migrations, each telling `log` its name and duration when it has run. */
function loggedMigrations(log: MigrationLog): MigrationProvider {
  return {
    getMigrations: async () => {
      const timed: Record<string, Migration> = {};
      for (const [name, migration] of Object.entries(await migrations.getMigrations())) {
        timed[name] = {
          up: async (db) => {
            const started = performance.now();
            await migration.up(db);
            log(`database migration ${name} done in ${Math.round(performance.now() - started)} ms`);
          },
        };
      }
      return timed;
    },
  };
}

/**
 * Brings the schema up to date; safe to run from several instances at once (the migrator locks). A
 * store a newer version has migrated is left as it is: this version can serve on it, and `log` says so.
 */
export async function migrate(
  db: Database,
  postgresSchema?: string,
  log: MigrationLog = () => undefined,
): Promise<void> {
  const { newer } = await storeVersion(db, postgresSchema);
  if (newer.length > 0) {
    log(
      `the store was upgraded by a newer version of Vrata (${newer.join(", ")}): serving without migrating`,
    );
    return;
  }
  const { error, results } = await migratorOf(db, loggedMigrations(log), postgresSchema).migrateToLatest();
  if (error === undefined) return;
  // A store that is away failed no migration: the start waits for it (see retryWhileStoreAway).
  if (error instanceof Error && isStoreUnavailable(error)) throw error;
  const failed = results?.find((result) => result.status === "Error")?.migrationName;
  const reason = error instanceof Error ? error.message : "no reason given";
  throw new MigrationFailed(
    failed ? `database migration ${failed} failed: ${reason}` : `database migrations failed: ${reason}`,
    { cause: error },
  );
}
