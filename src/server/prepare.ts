import type { Config } from "./config.ts";
import { loadTls, type TlsMaterial } from "./http/tls.ts";
import { newSecret } from "./ids.ts";
import { SigningKeyWatch } from "./oidc/key-watch.ts";
import { rotationSchedule } from "./oidc/key-rotation.ts";
import { ensureConsoleClient } from "./organizations/console.ts";
import { deriveInstanceSecrets, type InstanceSecrets } from "./secrets/instance-secrets.ts";
import { loadInstanceKey } from "./secrets/instance-key.ts";
import { sealedSettingOrCreate } from "./secrets/sealed-settings.ts";
import { openDatabase, type Database, type StoreOptions } from "./store/database.ts";
import { migrate } from "./store/migrate.ts";
import { retryWhileStoreAway, storeLocation, waitForStore, type WaitOptions } from "./store/wait.ts";
import type { PlainLog } from "./plain-log.ts";

// What an instance needs before it serves, made once: the primary process of several workers runs
// it before starting them, and loads only what it takes (not the web server or the OIDC engine).

/**
 * Opens the store and waits for it to answer: a PostgreSQL that is still starting, or restarting while
 * Vrata starts, is asked again (each attempt logged) for up to --database-wait before the start fails
 * with one line naming the host and the cause.
 */
export async function openStore(
  config: Pick<Config, "database" | "databaseWaitMs">,
  log: PlainLog,
  options: Partial<StoreOptions> = {},
): Promise<Database> {
  const db = await openDatabase({ database: config.database, ...options });
  if (config.database.kind === "postgres") {
    try {
      await waitForStore(db, storeWait(config, log));
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  return db;
}

/** How a start waits for a store that is away: for up to --database-wait, each attempt logged. */
function storeWait(config: Pick<Config, "database" | "databaseWaitMs">, log: PlainLog): WaitOptions {
  const { database } = config;
  return {
    location: database.kind === "postgres" ? storeLocation(database.url) : database.file,
    timeoutMs: config.databaseWaitMs,
    onRetry: log.warn,
  };
}

/**
 * Brings the store up to date and opens the instance's secret, signing keys, built-in console client
 * and TLS material, creating each one that does not exist yet. Each step may be taken again, so the
 * whole is tried again while the store is away (a SQLite file another process keeps locked, say).
 */
export function openInstance(...args: Parameters<typeof openInstanceOnce>) {
  const [config, , , { log }] = args;
  return retryWhileStoreAway(() => openInstanceOnce(...args), storeWait(config, log));
}

async function openInstanceOnce(
  config: Config,
  db: Database,
  secrets: InstanceSecrets,
  {
    postgresSchema,
    keyPollMs,
    log,
  }: { postgresSchema?: string | undefined; keyPollMs?: number | undefined; log: PlainLog },
) {
  await migrate(db, postgresSchema, log.info);
  const cookieSecret = await sealedSettingOrCreate(db, secrets.sealer, "cookieSecret", newSecret);
  const watch = await SigningKeyWatch.open({
    db,
    sealer: secrets.sealer,
    schedule: rotationSchedule(config),
    pollMs: keyPollMs,
  });
  try {
    const consoleClient = await ensureConsoleClient(db, config.issuer);
    return { cookieSecret, watch, consoleClient, tls: await loadTls(config) };
  } catch (error) {
    await watch.stop();
    throw error;
  }
}

/**
 * What the primary process does once before it starts the workers, so that they never race to create
 * the same things: reads or makes the instance key, brings the store up to date, and makes the
 * instance's secret, signing keys, console client and generated TLS certificate when they are missing.
 * Returns the TLS material the workers will serve with.
 */
export async function prepareInstance(config: Config, log: PlainLog): Promise<TlsMaterial | undefined> {
  const secrets = deriveInstanceSecrets(await loadInstanceKey(config.secretKey));
  const db = await openStore(config, log, {
    onConnectionLost: (error) => log.warn(`a database connection ended: ${error.message}`),
  });
  try {
    const { watch, tls } = await openInstance(config, db, secrets, { log });
    await watch.stop();
    return tls;
  } finally {
    await db.destroy();
    // The primary keeps running for as long as its workers serve.
    collectStartGarbage();
  }
}

/**
 * Loading modules, migrating and precomputing leave garbage behind that V8 keeps as spare heap: one
 * thorough collection gives back 10-25 MB of the idle footprint for about 80 ms. `gc` exists only
 * under --expose-gc, as bin/vrata.js starts node.
 */
export function collectStartGarbage(): void {
  globalThis.gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
}
