import cluster from "node:cluster";
import module from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { drainMessage, instancePrepared, runPrimary, stopMessage, stopSignals } from "./cluster.ts";
import { ConfigError, HelpRequested, loadConfig, servingProcesses, type Config } from "./config.ts";
import { describeStartFailure } from "./start-failure.ts";
import { logCrashes } from "./operations/crash-log.ts";

// The `vrata` command: reads the settings, starts the server and stops it cleanly on a signal. Each
// way of running loads the modules it needs when it needs them: the primary of several workers starts
// them before it loads what preparing the instance takes, and a subcommand loads no server.

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
if (command === "precompile") {
  await precompileModules(rest);
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
  const { backUpSqlite } = await import("./store/backup.ts");
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
  const { rotateKeysNow } = await import("./rotate-keys.ts");
  try {
    process.stdout.write(`vrata: ${await rotateKeysNow(settings)}\n`);
  } catch (error) {
    fail(describeStartFailure(error, settings));
  }
}

/** `vrata precompile`: every module in Node's compile cache, before the first start (precompile.ts). */
async function precompileModules(options: string[]): Promise<void> {
  if (options.length > 0) fail("usage: vrata precompile");
  const { precompile } = await import("./precompile.ts");
  try {
    const count = await precompile();
    process.stdout.write(`vrata: ${count} modules compiled into ${module.getCompileCacheDir()}\n`);
  } catch (error) {
    fail(`precompiling failed: ${(error as Error).message}`);
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
logCrashes(config);

/** Requests in flight get this long to finish before the process exits anyway. */
const shutdownGraceMs = 10_000;

const clustered = servingProcesses(config) > 1;
if (clustered && cluster.isPrimary) {
  runPrimary({
    config,
    graceMs: shutdownGraceMs,
    prepare: async () => {
      const [{ prepareInstance }, { plainLog }] = await Promise.all([
        import("./prepare.ts"),
        import("./plain-log.ts"),
      ]);
      return prepareInstance(config, plainLog(config));
    },
    failed: (error) => fail(describeStartFailure(error, config)),
  });
  const { gatherWorkerMetrics } = await import("./operations/cluster-metrics.ts");
  gatherWorkerMetrics();
} else {
  await serve(config);
}

/** In a worker: resolves when the primary asks it to stop, to whether it is to drain first. */
function askedToStop(): Promise<boolean> {
  return new Promise((resolve) => {
    process.on("message", (message) => {
      if (message === stopMessage || message === drainMessage) resolve(message === drainMessage);
    });
  });
}

/** Serves in this process: the only one, or one of the primary's workers. */
async function serve(config: Config): Promise<void> {
  // Listened for from the start: a message nobody listens for is lost, and a worker asked to stop
  // while it starts must not go on to serve.
  const stopAsked = cluster.isWorker ? askedToStop() : undefined;
  let vrata;
  try {
    // Loaded here: a primary process never serves, and does without the server's modules. A worker
    // loads them while the primary prepares the instance, and opens the store once it is prepared.
    const { withDeferredListFormats } = await import("./deferred-list-formats.ts");
    const [{ startVrata }, preparation] = await Promise.all([
      withDeferredListFormats(() => import("./start.ts")),
      cluster.isWorker ? instancePrepared() : "prepared",
    ]);
    if (preparation === "stopped") process.exit(0);
    const { shareCoresWith } = await import("./accounts/passwords.ts");
    shareCoresWith(servingProcesses(config));
    vrata = await startVrata(config);
  } catch (error) {
    fail(describeStartFailure(error, config));
  }

  const { app, url, issuer, tls } = vrata;
  let stopping = false;
  /**
   * Stops serving: readiness answers 503 at once; the server takes connections for `drainMs` more, so
   * that load balancers see it and move away, then stops listening and gives the requests in flight
   * the grace to finish.
   */
  const stop = async (reason: string, drainMs: number) => {
    stopping = true;
    vrata.drain.begin();
    if (drainMs > 0) {
      app.log.info(`${reason}: readiness answers 503, stopping in ${drainMs / 1000} s`);
      await sleep(drainMs);
    } else app.log.info(`${reason}, stopping`);
    setTimeout(() => {
      app.log.warn("requests still in flight after the grace period, exiting");
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
  // SIGTERM is how orchestrators and service managers stop an instance: it drains. SIGINT is a
  // terminal's Ctrl-C and SIGHUP a terminal that closed: a person is waiting, it stops at once. A
  // second signal while stopping means: now.
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    void stop(`${signal} received`, signal === "SIGTERM" ? config.drainDelayMs : 0);
  };
  for (const signal of stopSignals) process.on(signal, onSignal);
  if (cluster.isWorker) {
    // A terminal's Ctrl-C reaches the workers as well as the primary: its message then adds nothing.
    void stopAsked?.then((drain) => {
      if (!stopping) void stop("asked to stop", drain ? config.drainDelayMs : 0);
    });
    // The primary is gone: nobody would replace or stop this worker.
    process.on("disconnect", () => {
      if (!stopping) void stop("the primary process ended", 0);
    });
  }

  // What the store holds and where mail goes are the same for every worker: the first one tells of it.
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    const { reportRefusedScopes } = await import("./templates/scope-report.ts");
    await reportRefusedScopes(vrata.db, app.log).catch((error: unknown) => {
      app.log.error({ err: error }, "the stored templates' scopes could not be checked");
    });
    const { checkMailServer } = await import("./mail/mail-check.ts");
    // Not awaited: an SMTP server that does not answer must not hold up serving.
    void checkMailServer(vrata.mailer, app.log);
  }
  if (cluster.isWorker) {
    const { shareMetricsWithPrimary } = await import("./operations/cluster-metrics.ts");
    shareMetricsWithPrimary();
    app.log.info(`worker ready (listening at ${url})`);
  } else {
    app.log.info(`Vrata is serving ${issuer} (listening at ${url})`);
    if (tls?.caFile) {
      app.log.info(
        `TLS certificate issued by a local CA: trust ${tls.caFile} in your browser, or set NODE_EXTRA_CA_CERTS=${tls.caFile}`,
      );
    }
  }
}
