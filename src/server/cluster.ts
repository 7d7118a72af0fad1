import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { Config } from "./config.ts";
import type { TlsMaterial } from "./http/tls.ts";

// With --workers above 1, the `vrata` command's first process is the primary: it prepares the instance
// once, starts the workers (which share one listening socket, node:cluster handing each new connection
// to the next one), replaces any worker that dies and stops them all on a signal. It serves nothing.

/** What the primary tells a worker over the cluster's channel: finish the requests in flight and exit. */
export const stopMessage = "vrata:stop";

const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** Log lines shaped as the workers' (pino's JSON), so that one reader takes both. */
function primaryLog(level: Config["logLevel"]) {
  const write = (at: keyof typeof levels, msg: string) => {
    if (levels[at] < levels[level]) return;
    process.stdout.write(
      `${JSON.stringify({ level: levels[at], time: Date.now(), pid: process.pid, hostname: os.hostname(), msg })}\n`,
    );
  };
  return {
    info: (msg: string) => write("info", msg),
    warn: (msg: string) => write("warn", msg),
    error: (msg: string) => write("error", msg),
  };
}

export interface PrimaryOptions {
  config: Config;
  tls: TlsMaterial | undefined;
  /** Requests in flight get this long to finish before the workers are ended anyway. */
  graceMs: number;
}

/** Starts `config.workers` workers and keeps that many running until a signal stops them all. */
export function runPrimary({ config, tls, graceMs }: PrimaryOptions): void {
  const log = primaryLog(config.logLevel);
  /** Workers that have served: one ending after that is replaced; one ending before it shows a start that fails. */
  const served = new WeakSet<Worker>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const running = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  const stopAll = (code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    for (const worker of running()) if (worker.isConnected()) worker.send(stopMessage);
    setTimeout(() => {
      log.warn("workers still running after the grace period, ending them");
      for (const worker of running()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, graceMs + 1000).unref();
    if (running().length === 0) process.exit(exitCode);
  };

  cluster.on("listening", (worker, address) => {
    served.add(worker);
    if (announced || running().filter((each) => served.has(each)).length < config.workers) return;
    announced = true;
    const scheme = config.tls.kind === "proxy" ? "http" : "https";
    log.info(
      `Vrata is serving ${config.issuer} (listening at ${scheme}://localhost:${address.port}) with ${config.workers} workers`,
    );
    if (tls?.caFile) {
      log.info(
        `TLS certificate issued by a local CA: trust ${tls.caFile} in your browser, or set NODE_EXTRA_CA_CERTS=${tls.caFile}`,
      );
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const how = signal ? `on ${signal}` : `with exit code ${code}`;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (running().length === 0) process.exit(exitCode);
    } else if (!served.has(worker)) {
      log.error(`worker ${worker.process.pid} ended ${how} before it could serve: stopping`);
      stopAll(code || 1);
    } else {
      const replacement = cluster.fork();
      log.warn(`worker ${worker.process.pid} ended ${how}; worker ${replacement.process.pid} replaces it`);
    }
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (!stopping) log.info(`${signal} received, stopping ${running().length} workers`);
      stopAll(0);
    });
  }
  for (let started = 0; started < config.workers; started++) cluster.fork();
}
