import { ConfigError, HelpRequested, loadConfig } from "./config.ts";
import { startVrata } from "./start.ts";
import { describeStartFailure } from "./start-failure.ts";

// The `vrata` command: reads the settings, starts the server and stops it cleanly on a signal.

function fail(message: string): never {
  process.stderr.write(`vrata: ${message}\n`);
  process.exit(2);
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
