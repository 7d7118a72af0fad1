import type { ClientMetadata } from "oidc-provider";
import { clockToleranceSeconds } from "../../common/limits.ts";
import type { Config } from "../config.ts";
import type { Sealer } from "../secrets/sealing.ts";
import { everyClientMetadata } from "../store/clients.ts";
import type { Database } from "../store/database.ts";
import {
  deleteRemovedSigningKeys,
  insertSigningKeys,
  retireSigningKey,
  signingKeyRows,
  type SigningKeyRow,
} from "../store/signing-keys.ts";
import { accessTokenType, lifespan } from "./client-extras.ts";
import { ensureSigningKeys, generateSigningKey, keyRoles, signingAlgorithms } from "./keys.ts";

// A rotation adds a new generation of every algorithm's key. It is published at once and signs after
// a lead, by when relying parties that cache the published keys have it; the keys it replaces stay
// published, to verify only, until every token they signed has expired, and are deleted then.

export interface RotationSchedule {
  /** A rotation starts once the signing keys have signed this long; 0 rotates only when asked to. */
  rotateAfterMs: number;
  /** How long new keys are published before they sign. */
  leadMs: number;
}

const minuteMs = 60_000;

/** The schedule the options set (README, Signing keys). */
export const rotationSchedule = ({ keyRotation }: Pick<Config, "keyRotation">): RotationSchedule => ({
  rotateAfterMs: keyRotation.days * 24 * 60 * minuteMs,
  leadMs: keyRotation.leadMinutes * minuteMs,
});

/** Every running instance reads the keys at least this often: the latest it learns of new ones. */
export const keyPollMs = minuteMs;

/** The engine's lifespan of ID and access tokens for clients that set none (provider.ts). */
const defaultLifespanSeconds = 60 * 60;

export type RotationOutcome =
  | { started: true; kids: string[]; activatesAt: number }
  /** A rotation was pending already (or started by another instance at the same moment). */
  | { started: false; activatesAt: number };

/** When the keys of a pending rotation sign, if one is pending. */
function pendingActivation(rows: readonly SigningKeyRow[], now: number): number | undefined {
  const roles = keyRoles(rows, now);
  const pending = rows.filter((row) => roles.get(row.kid) === "pending").map((row) => row.activatesAt);
  return pending.length > 0 ? Math.min(...pending) : undefined;
}

/** Starts a rotation whose keys sign `leadMs` from now, unless one is pending. */
export async function rotateSigningKeys(
  db: Database,
  sealer: Sealer,
  now: number,
  leadMs: number,
): Promise<RotationOutcome> {
  const rows = await signingKeyRows(db);
  const pending = pendingActivation(rows, now);
  if (pending !== undefined) return { started: false, activatesAt: pending };
  const activatesAt = now + leadMs;
  const nextGeneration = (alg: string) =>
    Math.max(0, ...rows.filter((row) => row.alg === alg).map((row) => row.generation)) + 1;
  const keys = await Promise.all(
    signingAlgorithms.map((alg) => generateSigningKey(alg, sealer, nextGeneration(alg), activatesAt)),
  );
  if (await insertSigningKeys(db, keys, now))
    return { started: true, kids: keys.map((key) => key.kid), activatesAt };
  // Another instance rotated at the same moment: its keys are the rotation.
  const latest = await signingKeyRows(db);
  return { started: false, activatesAt: Math.max(...latest.map((row) => row.activatesAt)) };
}

/**
 * The longest a signed token lives: an ID token, or an access token of a client that gets JWTs (the
 * other tokens are opaque). Read when a key retires, from every client, active or not.
 */
async function longestSignedLifespanMs(db: Database): Promise<number> {
  let longest = defaultLifespanSeconds;
  for (const text of await everyClientMetadata(db)) {
    const metadata = JSON.parse(text) as ClientMetadata;
    longest = Math.max(
      longest,
      lifespan(metadata, "id", defaultLifespanSeconds),
      accessTokenType(metadata) === "jwt" ? lifespan(metadata, "access", defaultLifespanSeconds) : 0,
    );
  }
  return longest * 1000;
}

/** Sets when each newly retired key goes: once the last token it can have signed has expired. */
async function retireSuperseded(db: Database, rows: readonly SigningKeyRow[], now: number): Promise<boolean> {
  const roles = keyRoles(rows, now);
  const superseded = rows.filter((row) => roles.get(row.kid) === "retired" && row.removesAt === null);
  if (superseded.length === 0) return false;
  const lifespanMs = await longestSignedLifespanMs(db);
  for (const row of superseded) {
    const successor = rows
      .filter((other) => other.alg === row.alg && other.generation > row.generation)
      .reduce((first, other) => (other.generation < first.generation ? other : first));
    // Instances switch at the successor's activation, but one may learn of a successor made with
    // little lead only at its next reading of the keys.
    const retiredAt = Math.max(successor.activatesAt, successor.createdAt + keyPollMs);
    await retireSigningKey(db, row.kid, retiredAt, retiredAt + lifespanMs + clockToleranceSeconds * 1000);
  }
  return true;
}

/** When the schedule rotates next, unless a rotation is pending or the schedule is off. */
function scheduledRotation(rows: readonly SigningKeyRow[], now: number, schedule: RotationSchedule) {
  if (schedule.rotateAfterMs <= 0 || pendingActivation(rows, now) !== undefined) return undefined;
  const roles = keyRoles(rows, now);
  const signingSince = rows.filter((row) => roles.get(row.kid) === "signing").map((row) => row.activatesAt);
  return signingSince.length > 0 ? Math.min(...signingSince) + schedule.rotateAfterMs : undefined;
}

/**
 * Brings the stored keys up to `now`: first keys on first start, removal times of retired keys,
 * removal of the expired ones, and the scheduled rotation when it is due. Any number of instances may
 * do this at once. Returns the keys as they are then.
 */
export async function maintainSigningKeys(
  db: Database,
  sealer: Sealer,
  now: number,
  schedule: RotationSchedule,
): Promise<SigningKeyRow[]> {
  const rows = await ensureSigningKeys(db, sealer, now);
  let changed = await retireSuperseded(db, rows, now);
  if (rows.some((row) => row.removesAt !== null && row.removesAt <= now)) {
    changed = (await deleteRemovedSigningKeys(db, now)) > 0 || changed;
  }
  const due = scheduledRotation(rows, now, schedule);
  if (due !== undefined && due <= now) {
    await rotateSigningKeys(db, sealer, now, schedule.leadMs);
    changed = true;
  }
  return changed ? signingKeyRows(db) : rows;
}

/** The next moment the keys change by themselves: an activation, a removal or a scheduled rotation. */
export function nextKeyChange(
  rows: readonly SigningKeyRow[],
  now: number,
  schedule: RotationSchedule,
): number | undefined {
  const moments = [
    ...rows.map((row) => row.activatesAt),
    ...rows.map((row) => row.removesAt),
    scheduledRotation(rows, now, schedule),
  ].filter((moment): moment is number => typeof moment === "number" && moment > now);
  return moments.length > 0 ? Math.min(...moments) : undefined;
}
