import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./database.ts";
import { deleteExpiredFlows, deleteExpiredSessions } from "./flows.ts";
import { deleteExpiredAddressInvitations } from "./address-invitations.ts";
import { deleteExpiredEmailVerifications } from "./email-verifications.ts";
import { deleteExpiredInvitations } from "./invitations.ts";
import { deleteExpiredOidcModels } from "./oidc-models.ts";
import { deleteExpiredPasskeyChallenges } from "./passkey-challenges.ts";
import { deleteExpiredSamlAssertions } from "./saml-assertions.ts";
import { deleteEndedSessionDevices } from "./session-devices.ts";
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
  // After the expired sessions are gone: the browsers they were signed in in go with them.
  counts.push(await deleteEndedSessionDevices(db));
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Work the cleanup also does at each run, given the time: deleting the accounts whose deletion is due. */
export type CleanupTask = (now: number) => Promise<number>;

/**
 * Deletes expired rows now and every ten minutes, and runs `task` with them; returns the function that
 * stops it, and one that runs it once at a given time. Every instance runs it: each of its deletions
 * is safe to run twice at once.
 */
export function startExpiryCleanup(
  db: Database,
  log: Pick<FastifyBaseLogger, "debug" | "warn">,
  task: CleanupTask = () => Promise.resolve(0),
): { stop: () => void; runAt: (now: number) => Promise<number> } {
  const runAt = async (now: number) => {
    // The task first: what it deletes tells others (an account's sessions end with a logout), while
    // removing expired rows only forgets them.
    const done = await task(now);
    return done + (await removeExpired(db, now));
  };
  const run = () => {
    runAt(Date.now()).then(
      (deleted) => deleted > 0 && log.debug({ deleted }, "expired rows removed"),
      (error: unknown) => log.warn({ err: error }, "removing expired rows failed"),
    );
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runAt };
}
