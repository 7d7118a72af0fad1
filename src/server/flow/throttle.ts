import type { Database } from "../store/database.ts";
import { addAttempt, attemptLevel } from "../store/throttle.ts";

// Failed sign-in attempts are counted per account and per client address across all flows and all
// instances, so starting new flows does not reset an attacker (design.md §6). Each allows `limit`
// failures at once and regains that allowance over `drainMs`.

const drainMs = 15 * 60 * 1000;
const limits = { account: 50, address: 100 };

export interface AttemptSubject {
  address: string;
  accountId?: string;
}

const buckets = (subject: AttemptSubject) => [
  { key: `address:${subject.address}`, limit: limits.address },
  ...(subject.accountId ? [{ key: `account:${subject.accountId}`, limit: limits.account }] : []),
];

export async function isThrottled(db: Database, subject: AttemptSubject): Promise<boolean> {
  const now = Date.now();
  for (const { key, limit } of buckets(subject)) {
    // Throttled once one more failure would overflow the bucket.
    if ((await attemptLevel(db, key, now, limit / drainMs)) + 1 > limit) return true;
  }
  return false;
}

export async function recordFailedAttempt(db: Database, subject: AttemptSubject): Promise<void> {
  const now = Date.now();
  for (const { key, limit } of buckets(subject)) await addAttempt(db, key, now, limit / drainMs);
}
