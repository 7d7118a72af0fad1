import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import type { Database } from "./database.ts";
import { databaseConnectTimeoutMs as connectTimeoutMs } from "../../common/limits.ts";
import { connectionFailureReason, isSqliteBusy, isStoreUnavailable, StoreUnreachable } from "./errors.ts";

/** Where the store is, for messages: host and port of a PostgreSQL URL, never its user or password. */
export function storeLocation(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname || "localhost"}:${port || "5432"}`;
  } catch {
    return "the configured host";
  }
}

export interface WaitOptions {
  /** Where the store is, for the messages: host and port, or SQLite's file. */
  location: string;
  timeoutMs: number;
  /** Told of each attempt that failed and when the next one is. */
  onRetry: (message: string) => void;
}

const firstDelayMs = 500;
const longestDelayMs = 5_000;

/**
 * Runs `work` until it gets past a store that is away: a database that is starting, restarting or not
 * reachable yet, or a SQLite file another process keeps locked, is tried again, sooner at first and
 * then every few seconds, until `timeoutMs` has passed; then {@link StoreUnreachable} names where and
 * why. Anything else (a refused password, a missing database) is thrown at once: waiting would not
 * change it.
 */
export async function retryWhileStoreAway<T>(
  work: () => Promise<T>,
  { location, timeoutMs, onRetry }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = firstDelayMs; ; delayMs = Math.min(delayMs * 2, longestDelayMs)) {
    const attemptStart = Date.now();
    try {
      return await work();
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      // A host that takes the connection and then says nothing is cut off by the pool, which calls it
      // a terminated connection: what the operator must know is that it never answered.
      const cause =
        Date.now() - attemptStart >= connectTimeoutMs && !isSqliteBusy(error)
          ? `it accepted a connection but did not answer within ${connectTimeoutMs / 1000} s`
          : connectionFailureReason(error);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new StoreUnreachable(
          `the database at ${location} did not answer within ${Math.round(timeoutMs / 1000)} s: ${cause}`,
          { cause: error },
        );
      }
      const wait = Math.min(delayMs, left);
      onRetry(
        `the database at ${location} does not answer (${cause}); trying again in ${(wait / 1000).toFixed(1)} s`,
      );
      await sleep(wait);
    }
  }
}

/** Resolves once the store answers a query (see {@link retryWhileStoreAway}). */
export async function waitForStore(db: Database, options: WaitOptions): Promise<void> {
  await retryWhileStoreAway(() => sql`SELECT 1`.execute(db), options);
}
