import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./database.ts";
import { deleteExpiredFlows, deleteExpiredSessions } from "./flows.ts";
import { deleteExpiredAddressInvitations } from "./address-invitations.ts";
import { deleteExpiredEmailVerifications } from "./email-verifications.ts";
import { deleteExpiredInvitations } from "./invitations.ts";
import { deleteExpiredOidcModels } from "./oidc-models.ts";
import { deleteExpiredPasskeyChallenges } from "./passkey-challenges.ts";
import { deleteExpiredSamlAssertions } from "./saml-assertions.ts";
import { deleteStaleCounters } from "./throttle.ts";
import { deleteExpiredUpstreamRequests } from "./upstream-requests.ts";

const intervalMs = 10 * 60 * 1000;
/** Attempt counters older than this no longer throttle anything. */
const counterRetentionMs = 24 * 60 * 60 * 1000;

async function removeExpired(db: Database, now: number): Promise<number> {
  const counts = await Promise.all([
    deleteExpiredOidcModels(db, now),
    deleteExpiredFlows(db, now),
    deleteExpiredSessions(db, now),
    deleteStaleCounters(db, now - counterRetentionMs),
    deleteExpiredInvitations(db, now),
    deleteExpiredAddressInvitations(db, now),
    deleteExpiredPasskeyChallenges(db, now),
    deleteExpiredUpstreamRequests(db, now),
    deleteExpiredSamlAssertions(db, now),
    deleteExpiredEmailVerifications(db, now),
  ]);
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Deletes expired rows now and every ten minutes; returns the function that stops it. */
export function startExpiryCleanup(db: Database, log: Pick<FastifyBaseLogger, "debug" | "warn">): () => void {
  const run = () => {
    removeExpired(db, Date.now()).then(
      (deleted) => deleted > 0 && log.debug({ deleted }, "expired rows removed"),
      (error: unknown) => log.warn({ err: error }, "removing expired rows failed"),
    );
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
