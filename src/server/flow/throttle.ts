import type { Database } from "../store/database.ts";
import { countFailure, failureCount } from "../store/throttle.ts";

// Failed sign-in attempts are counted per account and per client address across all flows and all
// instances, so starting new flows does not reset an attacker (design.md §6).

const windowMs = 15 * 60 * 1000;
const limits = { account: 50, address: 100 };

const windowStart = (now: number) => now - (now % windowMs);

export interface AttemptSubject {
  address: string;
  accountId?: string;
}

const keys = (subject: AttemptSubject) => [
  { key: `address:${subject.address}`, limit: limits.address },
  ...(subject.accountId ? [{ key: `account:${subject.accountId}`, limit: limits.account }] : []),
];

export async function isThrottled(db: Database, subject: AttemptSubject): Promise<boolean> {
  const start = windowStart(Date.now());
  for (const { key, limit } of keys(subject)) if ((await failureCount(db, key, start)) >= limit) return true;
  return false;
}

export async function recordFailedAttempt(db: Database, subject: AttemptSubject): Promise<void> {
  const start = windowStart(Date.now());
  for (const { key } of keys(subject)) await countFailure(db, key, start);
}
