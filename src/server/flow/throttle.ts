import { isIPv6 } from "node:net";
import { maxFlowAttempts, rateLimits, type RateLimit } from "../../common/limits.ts";
import type { KeyedHash } from "../secrets/keyed-hash.ts";
import type { Database } from "../store/database.ts";
import type { FlowDeps } from "./deps.ts";
import { limitOfBucket, limitRefusals } from "../operations/metrics.ts";
import { bucketLevel, releaseUnits, reserveUnits, type Bucket } from "../store/throttle.ts";

// Which limits guard which work (design.md §6-§7, README "Limits"). Every unit is reserved in the
// store before the work it guards, so simultaneous requests on any number of instances cannot pass
// a limit; work that turns out legitimate (the right password) gives its units back.

/**
 * Where limits are counted. Buckets are named here by what they count (`guess:<account>:<address>`);
 * the store knows them by the keyed hash of that name only, so a copy of it names no account, address
 * or mailbox, and cannot be reversed by trying every address.
 */
export interface LimitStore {
  db: Database;
  keyOf: KeyedHash;
}

export const limitStore = ({ db, secrets }: Pick<FlowDeps, "db" | "secrets">): LimitStore => ({
  db,
  keyOf: secrets.limitKeys,
});

const inStore = (limits: LimitStore, bucket: Bucket): Bucket => ({
  ...bucket,
  key: limits.keyOf(bucket.key),
});

const bucket = (key: string, { limit, regainedOverMs }: RateLimit): Bucket => ({
  key,
  limit,
  ratePerMs: limit / regainedOverMs,
});

/**
 * The part of a client address that one party controls: an IPv4 address, or the /64 prefix of an
 * IPv6 address (one household or server gets a whole /64).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = "", tail] = address.toLowerCase().split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(missing, 0)).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** A limit was reached: nothing was reserved, and `retryAfterMs` tells when there is room again. */
export interface Refusal {
  bucket: Bucket;
  retryAfterMs: number;
}

export interface Reservation {
  buckets: Bucket[];
  /** Each bucket's level after this reservation. */
  levels: number[];
}

/**
 * Reserves one unit in every bucket, or in none: when a bucket is full, the units the others took are
 * given back. The buckets are asked in one statement, so a guess costs one round trip to the store.
 */
export async function reserveAll(limits: LimitStore, buckets: Bucket[]): Promise<Reservation | Refusal> {
  const { db } = limits;
  const now = Date.now();
  const stored = buckets.map((named) => inStore(limits, named));
  const levels = await reserveUnits(db, stored, now);
  const full = buckets.find((_, index) => levels[index] === undefined);
  if (!full) return { buckets, levels: levels as number[] };
  limitRefusals.inc({ limit: limitOfBucket(full.key) });
  await releaseUnits(
    db,
    stored.filter((_, index) => levels[index] !== undefined),
    now,
  );
  const level = await bucketLevel(db, inStore(limits, full), now);
  const retryAfterMs = full.ratePerMs > 0 ? (level + 1 - full.limit) / full.ratePerMs : Infinity;
  return { bucket: full, retryAfterMs: Math.max(retryAfterMs, 1000) };
}

/** Gives back every unit of the reservation: the work it was for was not done. */
export async function releaseAll(limits: LimitStore, reservation: Reservation): Promise<void> {
  const now = Date.now();
  const stored = reservation.buckets.map((taken) => inStore(limits, taken));
  await releaseUnits(limits.db, stored, now);
}

export const isRefusal = (result: Reservation | Refusal): result is Refusal => "retryAfterMs" in result;

/**
 * What is guessed at: a password, an e-mail code, a passkey's signature (which cannot be guessed), or
 * a second factor (an authenticator app's code, a recovery code, a passkey after a first factor).
 */
export type GuessKind = "password" | "code" | "passkey" | "secondFactor";

export interface GuessSubject {
  flowId: string;
  address: string;
  accountId?: string | undefined;
  /** The nonce of the browser's device cookie, when the browser signed in to the account before. */
  knownDevice?: string | undefined;
}

/** The guesses one flow may make in all; then it fails (reference §4.5). */
export const flowGuessBucket = (flowId: string): Bucket => ({
  key: `flow:${flowId}`,
  limit: maxFlowAttempts,
  ratePerMs: 0,
});

/** Guesses on the account from one client: its known browser, or else its network address. */
const clientBucket = (accountId: string, { address, knownDevice }: GuessSubject) =>
  bucket(
    knownDevice ? `guess-device:${accountId}:${knownDevice}` : `guess:${accountId}:${addressKey(address)}`,
    rateLimits.guessesPerAccountAndClient,
  );

/**
 * Second-factor codes guessed for the account from anywhere: in a sign-in, and on the account page
 * setting up an authenticator app, so neither is a way around the other's limit.
 */
export const secondFactorGuessBucket = (accountId: string): Bucket =>
  bucket(`second-factor-guess:${accountId}`, rateLimits.secondFactorGuessesPerAccount);

/**
 * Passwords and e-mail codes guessed for the account from anywhere: in a sign-in, and on the account
 * page (the current password, a new address's code), so neither is a way around the other's limit.
 */
export const passwordGuessBucket = (accountId: string): Bucket =>
  bucket(`password-guess:${accountId}`, rateLimits.passwordGuessesPerAccount);
export const codeGuessBucket = (accountId: string): Bucket =>
  bucket(`code-guess:${accountId}`, rateLimits.codeGuessesPerAccount);

export function guessBuckets(kind: GuessKind, subject: GuessSubject): Bucket[] {
  const { flowId, address, accountId, knownDevice } = subject;
  const flow = flowGuessBucket(flowId);
  // Whoever guesses a second factor has proven the first one, and with it got the account's known
  // browser cookie: the account's own ceiling always counts.
  if (kind === "secondFactor" && accountId !== undefined)
    return [flow, clientBucket(accountId, subject), secondFactorGuessBucket(accountId)];
  if (accountId === undefined)
    return [flow, bucket(`guess:${addressKey(address)}`, rateLimits.guessesPerAddress)];
  if (knownDevice) return [flow, clientBucket(accountId, subject)];
  const fromClient = [
    flow,
    bucket(`guess:${addressKey(address)}`, rateLimits.guessesPerAddress),
    clientBucket(accountId, subject),
  ];
  // A signature cannot be guessed: an account-wide ceiling on passkey attempts would protect nothing
  // and would let anyone who fills it lock the owner out.
  if (kind === "passkey") return fromClient;
  return [...fromClient, kind === "password" ? passwordGuessBucket(accountId) : codeGuessBucket(accountId)];
}

/**
 * A right guess is no failure: its units go back to the address and account ceilings, and failures
 * from the same client on this account are forgotten (NIST SP 800-63B §5.2.2). The flow's own count
 * stays: it only limits that flow.
 */
export async function forgiveGuess(limits: LimitStore, reservation: Reservation, subject: GuessSubject) {
  const forgiven = subject.accountId ? clientBucket(subject.accountId, subject).key : "";
  const stored = reservation.buckets
    .slice(1)
    .map((taken) => ({ named: taken.key, ...inStore(limits, taken) }));
  await releaseUnits(
    limits.db,
    stored.filter((bucket) => bucket.named !== forgiven),
    Date.now(),
    stored.filter((bucket) => bucket.named === forgiven),
  );
}

/**
 * Buckets for sending a code: each recipient, the account it signs in to, and the requester's
 * address; a browser that signed in to the account before has a bucket of its own instead.
 */
export function codeSendBuckets(
  address: string,
  recipients: string[],
  account?: { id: string; knownDevice: string | undefined },
): Bucket[] {
  if (account?.knownDevice) {
    return [bucket(`code-send-device:${account.id}:${account.knownDevice}`, rateLimits.codesPerRecipient)];
  }
  return [
    bucket(`code-send:${addressKey(address)}`, rateLimits.codesPerAddress),
    ...(account ? [bucket(`code-send-account:${account.id}`, rateLimits.codesPerAccount)] : []),
    ...recipients.map((recipient) =>
      bucket(`code-send-to:${recipient.toLowerCase()}`, rateLimits.codesPerRecipient),
    ),
  ];
}

export const signUpBucket = (address: string): Bucket =>
  bucket(`sign-up:${addressKey(address)}`, rateLimits.signUpsPerAddress);

/** Buckets for naming a person to share an identity with: the sharing account, and the person named. */
export const shareBuckets = (accountId: string, personKey: string): Bucket[] => [
  bucket(`share:${accountId}`, rateLimits.sharesPerAccount),
  bucket(`share-to:${personKey}`, rateLimits.sharesPerPerson),
];

/** Buckets for sending an invitation by e-mail: the inviting organization, and the address invited. */
export const invitationBuckets = (organizationId: string, addressKey: string): Bucket[] => [
  bucket(`invite:${organizationId}`, rateLimits.invitationsPerOrganization),
  bucket(`invite-to:${addressKey}`, rateLimits.invitationsPerAddress),
];
