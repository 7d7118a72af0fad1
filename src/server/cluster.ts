import cluster, { type Worker } from "node:cluster";
import type { Config } from "./config.ts";
import type { TlsMaterial } from "./http/tls.ts";
import { plainLog } from "./plain-log.ts";

// With --workers above 1, the `vrata` command's first process is the primary: it starts the workers
// (which share one listening socket, node:cluster handing each new connection to the next one),
// prepares the instance once while they load their modules, replaces any worker that dies and stops
// them all on a signal. It serves nothing.

/** What the primary tells a worker over the cluster's channel: finish the requests in flight and exit. */
export const stopMessage = "vrata:stop";
/** The same after the drain delay, readiness answering 503 meanwhile (on SIGTERM). */
export const drainMessage = "vrata:drain";
/** The signals that stop Vrata; SIGTERM drains first. */
export const stopSignals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
/** A worker asks over the channel to hear when the instance is prepared; the primary answers with {@link preparedMessage}. */
const awaitPreparationMessage = "vrata:await-preparation";
const preparedMessage = "vrata:prepared";

/**
 * In a worker: resolves once the primary has prepared the instance (migrated the store, made its
 * keys), at once for a worker started after that; resolves to "stopped" when the primary stops the
 * workers first. Asked for rather than waited for, so that no answer comes before it is listened to.
 */
export function instancePrepared(): Promise<"prepared" | "stopped"> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message !== preparedMessage && message !== stopMessage && message !== drainMessage) return;
      finish();
      resolve(message === preparedMessage ? "prepared" : "stopped");
    };
    const onDisconnect = () => {
      finish();
      reject(new Error("the primary process ended before the instance was prepared"));
    };
    const finish = () => {
      process.off("message", onMessage);
      process.off("disconnect", onDisconnect);
    };
    process.on("message", onMessage);
    process.on("disconnect", onDisconnect);
    process.send?.(awaitPreparationMessage);
  });
}

/**
 * What the workers' environment adds to the primary's: glibc's malloc held to two arenas, unless the
 * operator chose a number. By default glibc gives each thread that allocates an arena of its own (up
 * to eight per core), and each keeps the memory freed in it: an idle worker holds less with two. The
 * JavaScript runs on one thread, and the argon2id hashes on the thread pool take their 19 MiB each
 * straight from the system (glibc maps allocations that large on their own), so the two arenas are
 * seldom contended. `npm run bench` measures the flows with them. Other C libraries ignore the variable.
 */
export function addedWorkerEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const chosen = env.MALLOC_ARENA_MAX !== undefined || env.GLIBC_TUNABLES?.includes("malloc.arena_max");
  return chosen ? {} : { MALLOC_ARENA_MAX: "2" };
}

/** How long the primary waits before replacing a worker: at once after one that served, then 1, 2, 4 … 30 s. */
export function replacementDelayMs(failedStarts: number): number {
  return failedStarts === 0 ? 0 : Math.min(1000 * 2 ** (failedStarts - 1), 30_000);
}

export interface PrimaryOptions {
  config: Config;
  /** Prepares the instance (see prepare.ts); resolves to the TLS material the workers serve with. */
  prepare: () => Promise<TlsMaterial | undefined>;
  /** Preparing failed: the workers have been ended; reports why and exits. */
  failed: (error: unknown) => never;
  /** Requests in flight get this long to finish before the workers are ended anyway. */
  graceMs: number;
}

/**
 * Starts `config.workers` workers and keeps that many running until a signal stops them all. They
 * start at once, loading their modules while this process prepares the instance, and open the store
 * only once it is prepared.
 */
export function runPrimary({ config, prepare, failed, graceMs }: PrimaryOptions): void {
  const log = plainLog(config);
  /** Workers that have served: one ending after that is replaced; one ending before it shows a start that fails. */
  const served = new WeakSet<Worker>();
  let announced = false;
  /** Replacements in a row that ended before they served. */
  let failedStarts = 0;
  let stopping = false;
  let exitCode = 0;
  let tls: TlsMaterial | undefined;

  const running = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  const stopAll = (code: number, drain = false) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    for (const worker of running()) if (worker.isConnected()) worker.send(drain ? drainMessage : stopMessage);
    setTimeout(
      () => {
        log.warn("workers still running after the grace period, ending them");
        for (const worker of running()) worker.process.kill("SIGKILL");
        process.exit(1);
      },
      (drain ? config.drainDelayMs : 0) + graceMs + 1000,
    ).unref();
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
    } else if (!announced) {
      log.error(`worker ${worker.process.pid} ended ${how} before it could serve: stopping`);
      stopAll(code || 1);
    } else {
      // Once the instance serves, a worker is always replaced: one that cannot start (the database is
      // away, say) is tried again later and later, never given up on, while the others serve. The timer
      // keeps the primary running even when no worker is left.
      failedStarts = served.has(worker) ? 0 : failedStarts + 1;
      const delayMs = replacementDelayMs(failedStarts);
      const ended = `worker ${worker.process.pid} ended ${how}${served.has(worker) ? "" : " before it could serve"}`;
      if (delayMs === 0) {
        const replacement = cluster.fork(addedWorkerEnvironment(process.env));
        log.warn(`${ended}; worker ${replacement.process.pid} replaces it`);
      } else {
        log.warn(`${ended}; a replacement starts in ${delayMs / 1000} s`);
        setTimeout(() => {
          if (!stopping) cluster.fork(addedWorkerEnvironment(process.env));
        }, delayMs);
      }
    }
  });

  for (const signal of stopSignals) {
    process.on(signal, () => {
      const drain = signal === "SIGTERM" && config.drainDelayMs > 0;
      if (!stopping) {
        log.info(
          `${signal} received, stopping ${running().length} workers${drain ? ` in ${config.drainDelayMs / 1000} s` : ""}`,
        );
      }
      stopAll(0, drain);
    });
  }
  for (let started = 0; started < config.workers; started++)
    cluster.fork(addedWorkerEnvironment(process.env));
  const preparation = prepare();
  preparation.then(
    (prepared) => {
      tls = prepared;
    },
    (error: unknown) => {
      stopping = true;
      for (const worker of running()) worker.process.kill();
      failed(error);
    },
  );
  cluster.on("message", (worker, message: unknown) => {
    if (message !== awaitPreparationMessage) return;
    // A worker that asks after the workers were told to stop may not have heard it: it is told again.
    const answer = () => {
      if (worker.isConnected()) worker.send(stopping ? stopMessage : preparedMessage);
    };
    if (stopping) answer();
    else preparation.then(answer, () => undefined);
  });
}
