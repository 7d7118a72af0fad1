import type { Config } from "../config.ts";
import { recordBase } from "../plain-log.ts";
import { writeLogRecord } from "./log-output.ts";

// A fault nothing caught ends the process, as Node.js would end it, but with one log line shaped as
// every other (fatal, with the error's type, message and stack) instead of a bare stack on standard
// error that a log collector splits into lines it cannot read. The primary of several workers then
// replaces the worker.

/** An error as the log's `err` field: its type, message, stack, code and causes. */
export function errorFields(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const { code } = error as { code?: unknown };
  return {
    type: error.name,
    message: error.message,
    stack: error.stack,
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorFields(error.cause, depth + 1) } : {}),
  };
}

/** From now on, an uncaught exception or unhandled rejection is logged, then ends the process. */
export function logCrashes(config: Pick<Config, "logFormat">): void {
  process.on("uncaughtException", (error, origin) => {
    const msg =
      origin === "unhandledRejection"
        ? "a promise was rejected and nothing handled it: exiting"
        : "an exception was not caught: exiting";
    // Should the line never get out (standard output closed), the process still ends as failed.
    process.exitCode = 1;
    writeLogRecord(config.logFormat, { ...recordBase(60), msg, err: errorFields(error) }, () =>
      process.exit(1),
    );
  });
}
