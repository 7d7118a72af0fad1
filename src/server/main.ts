import path from "node:path";
import { ConfigError, HelpRequested, loadConfig, type Config } from "./config.ts";
import { rotateKeysNow } from "./rotate-keys.ts";
import { backUpSqlite } from "./store/backup.ts";
import { startVrata } from "./start.ts";
import { describeStartFailure } from "./start-failure.ts";

// The `vrata` command: reads the settings, starts the server and stops it cleanly on a signal.

function fail(message: string): never {
  process.stderr.write(`vrata: ${message}\n`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (command === "backup") {
  await backUp(rest);
  process.exit(0);
}
if (command === "keys") {
  await keys(rest);
  process.exit(0);
}

/** The settings a subcommand works on: the same options as the server's. */
function subcommandSettings(options: string[]): Config {
  try {
    return loadConfig(options, process.env);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof HelpRequested) fail(error.message);
    throw error;
  }
}

/** `vrata backup <file> [options]`: a consistent copy of the SQLite store, taken while Vrata serves. */
async function backUp([destination, ...options]: string[]): Promise<void> {
  if (destination === undefined || destination.startsWith("-")) fail("usage: vrata backup <file> [options]");
  const settings = subcommandSettings(options);
  if (settings.database.kind === "postgres") {
    fail("the store is PostgreSQL: back it up with pg_dump (README, Secrets and backups)");
  }
  try {
    const pages = await backUpSqlite(settings.database.file, path.resolve(destination));
    process.stdout.write(
      `vrata: backed up ${settings.database.file} to ${path.resolve(destination)} (${pages} pages). ` +
        "Keep the instance key (secret.key or VRATA_SECRET_KEY) too, stored apart: the copy's secrets open only with it.\n",
    );
  } catch (error) {
    fail(`backup failed: ${(error as Error).message}`);
  }
}

/** `vrata keys rotate [options]`: new signing keys, published now, signing after the lead. */
async function keys([action, ...options]: string[]): Promise<void> {
  if (action !== "rotate") fail("usage: vrata keys rotate [options]");
  const settings = subcommandSettings(options);
  try {
    process.stdout.write(`vrata: ${await rotateKeysNow(settings)}\n`);
  } catch (error) {
    fail(describeStartFailure(error, settings));
  }
}

let config;
try {
  config = loadConfig(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof HelpRequested) {
    process.stdout.write(error.message);
    process.exit(0);
  }
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

let vrata;
try {
  vrata = await startVrata(config);
} catch (error) {
  fail(describeStartFailure(error, config));
}

const { app, url, issuer, tls } = vrata;
app.log.info(`Vrata is serving ${issuer} (listening at ${url})`);
if (tls?.caFile) {
  app.log.info(
    `TLS certificate issued by a local CA: trust ${tls.caFile} in your browser, or set NODE_EXTRA_CA_CERTS=${tls.caFile}`,
  );
}

/** Requests in flight get this long to finish before the process exits anyway. */
const shutdownGraceMs = 10_000;

let stopping = false;
const stop = (signal: string) => {
  if (stopping) process.exit(1);
  stopping = true;
  app.log.info(`${signal} received, stopping`);
  setTimeout(() => {
    app.log.warn("connections still open after the grace period, exiting");
    process.exit(1);
  }, shutdownGraceMs).unref();
  vrata.close().then(
    () => process.exit(0),
    (error: unknown) => {
      app.log.error({ err: error }, "stopping failed");
      process.exit(1);
    },
  );
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
