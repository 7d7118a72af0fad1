/** Whether a write failed because a row with the same unique key exists (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // PostgreSQL's unique_violation; SQLite's SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY.
  return code === "23505" || errcode === 2067 || errcode === 1555;
}

/**
 * The store could not be reached for this query: the connection was lost or refused, or PostgreSQL is
 * shutting down or starting. The request that met it fails with a 503 and may be tried again; the
 * process goes on, and the pool opens new connections once the database answers again.
 * `statusCode` is what the OIDC engine reads to answer with the same status.
 */
export class StoreUnavailable extends Error {
  override name = "StoreUnavailable";
  readonly statusCode = 503;

  constructor(cause: unknown) {
    super("the database does not answer", { cause });
  }
}

// Node's codes of a connection that could not be made or was cut.
const connectionFailures = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: admin_shutdown,
// crash_shutdown, cannot_connect_now, database_dropped), and 53300 (too_many_connections).
const unavailableStates = /^(08...|57P0[1-4]|53300)$/;

// What pg says, without a code, of a connection that ended under it or never finished opening.
const lostConnection =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed/i;

/** What the driver said of a failure to reach the database (its innermost cause), for a log line without a stack. */
export function connectionFailureReason(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  // Every address of a host refused: an AggregateError without a message of its own.
  if (current instanceof AggregateError && current.errors[0] instanceof Error) current = current.errors[0];
  return current instanceof Error ? current.message || current.name : String(current);
}

// SQLite's SQLITE_BUSY and its extended codes.
const sqliteBusy = new Set([5, 261, 517]);

/** Whether another process held SQLite's write lock for longer than busy_timeout (a backup, say). */
export function isSqliteBusy(error: unknown): boolean {
  const { errcode } = (error ?? {}) as { errcode?: unknown };
  return typeof errcode === "number" && sqliteBusy.has(errcode);
}

/**
 * Whether `error` means the store could not be used for now (rather than that the query was wrong):
 * the database could not be reached, or another process held SQLite's write lock for too long.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailable) return true;
  if (!(error instanceof Error)) return false;
  if (isSqliteBusy(error)) return true;
  const { code } = error as { code?: unknown };
  if (typeof code === "string" && (connectionFailures.has(code) || unavailableStates.test(code))) return true;
  if (code === undefined && lostConnection.test(error.message)) return true;
  // An AggregateError (every address of a host refused) carries the reasons one level down.
  return error instanceof AggregateError && error.errors.some(isStoreUnavailable);
}

/** The database did not answer within the time a start waits for it (--database-wait). */
export class StoreUnreachable extends Error {
  override name = "StoreUnreachable";
}
