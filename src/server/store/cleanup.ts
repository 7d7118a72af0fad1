import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./database.ts";
import { deleteExpiredOidcModels } from "./oidc-models.ts";

const intervalMs = 10 * 60 * 1000;

/** Deletes expired rows now and every ten minutes; returns the function that stops it. */
export function startExpiryCleanup(db: Database, log: FastifyBaseLogger): () => void {
  const run = () => {
    deleteExpiredOidcModels(db, Date.now()).then(
      (deleted) => deleted > 0 && log.debug({ deleted }, "expired OIDC artifacts removed"),
      (error: unknown) => log.warn({ err: error }, "removing expired OIDC artifacts failed"),
    );
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
