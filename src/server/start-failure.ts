import type { Config } from "./config.ts";
import { FolderError } from "./folders.ts";
import { StoreUnreachable } from "./store/errors.ts";

type Failure = Error & { code?: string; path?: string; address?: string; port?: number; hostname?: string };

/** The error itself or one of its causes that carries a system or PostgreSQL code. */
function rootCause(error: unknown): Failure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const failure = current as Failure;
    if (failure instanceof FolderError || typeof failure.code === "string") return failure;
    current = failure.cause;
  }
  return error instanceof Error ? error : undefined;
}

/** PostgreSQL's answers that mean the settings of --database are wrong (SQLSTATE classes 08, 28, 3D). */
const refusedByPostgres = /^(08|28|3D)/;

/**
 * The one line that tells the person starting Vrata why it could not start, naming the option to
 * change where one is at fault.
 */
export function describeStartFailure(error: unknown, config: Pick<Config, "port" | "database">): string {
  if (error instanceof StoreUnreachable) return `--database: ${error.message}`;
  const cause = rootCause(error);
  if (!cause) return String(error);
  if (cause instanceof FolderError) return `--data: ${cause.message}`;
  const { code, message } = cause;
  const database = config.database.kind === "postgres";
  switch (code) {
    case "EADDRINUSE":
      return `--port: port ${config.port} is already in use (choose another)`;
    case "EACCES":
      if (!cause.path) return `--port: not allowed to listen on port ${config.port}`;
      return `cannot read ${cause.path}: permission denied`;
    case "ENOENT":
      return cause.path ? `cannot read ${cause.path}: no such file` : message;
    case "ECONNREFUSED":
      return `--database: connection refused at ${cause.address ?? "the server"}${cause.port ? `:${cause.port}` : ""}`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `--database: host ${cause.hostname ?? ""} not found`;
    case "ETIMEDOUT":
      return database ? "--database: the connection timed out" : message;
  }
  if (database && code !== undefined && refusedByPostgres.test(code)) return `--database: ${message}`;
  return message;
}
