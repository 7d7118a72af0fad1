import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Sealer } from "../secrets/sealing.ts";
import { openStoredSecret } from "../secrets/stored-secret.ts";
import type { Database } from "../store/database.ts";
import {
  insertSigningKeys,
  signingKeyRows,
  updateSigningKeyJwk,
  type NewSigningKey,
  type SigningKeyRow,
} from "../store/signing-keys.ts";

/** Algorithms Vrata always has a signing key for. RS256 comes first: it is what every client supports. */
export const signingAlgorithms = ["RS256", "ES256"] as const;

/** Binds a sealed private key to its row: a sealed key copied to another row does not open. */
const sealingContext = (kid: string) => `signing_keys:${kid}`;

/**
 * A key signs once it has activated and until a newer generation of its algorithm has; before, it is
 * pending, after, retired. Pending and retired keys are published to verify only.
 */
export type KeyRole = "signing" | "pending" | "retired";

/** The private keys the engine holds, every one of them published (as its public half). */
export interface OpenedSigningKeys {
  /** One key per algorithm, in the order of {@link signingAlgorithms}. */
  signing: JWK[];
  /** Keys waiting for their activation, and retired keys until the tokens they signed have expired. */
  verifyOnly: JWK[];
}

/** A new private signing key for `alg`, named by its thumbprint. */
export async function newPrivateSigningJwk(alg: string): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk, "sha256"), alg, use: "sig" };
}

export async function generateSigningKey(
  alg: string,
  sealer: Sealer,
  generation: number,
  activatesAt: number,
): Promise<NewSigningKey> {
  const jwk = await newPrivateSigningJwk(alg);
  const privateJwk = JSON.stringify(jwk);
  return {
    kid: jwk.kid,
    alg,
    privateJwk: sealer.seal(privateJwk, sealingContext(jwk.kid)),
    generation,
    activatesAt,
  };
}

/** The role of every stored key at `now`. */
export function keyRoles(rows: readonly SigningKeyRow[], now: number): Map<string, KeyRole> {
  const roles = new Map<string, KeyRole>();
  for (const alg of new Set(rows.map((row) => row.alg))) {
    const generations = rows.filter((row) => row.alg === alg).toSorted((a, b) => b.generation - a.generation);
    // Before any has activated (on a clock behind the one of the instance that made the first key),
    // the oldest signs: an algorithm is never without a key.
    const signing = generations.find((row) => row.activatesAt <= now) ?? generations.at(-1);
    for (const row of generations) {
      const role =
        row === signing ? "signing" : row.generation > (signing?.generation ?? 0) ? "pending" : "retired";
      roles.set(row.kid, role);
    }
  }
  return roles;
}

/**
 * Adds the first key of every algorithm that has none, signing at once: nothing can have cached the
 * keys of an algorithm that had none. Instances starting together add one between them. Returns
 * every stored key.
 */
export async function ensureSigningKeys(db: Database, sealer: Sealer, now: number): Promise<SigningKeyRow[]> {
  const rows = await signingKeyRows(db);
  const missing = signingAlgorithms.filter((alg) => !rows.some((row) => row.alg === alg));
  if (missing.length === 0) return rows;
  const keys = await Promise.all(missing.map((alg) => generateSigningKey(alg, sealer, 1, now)));
  await insertSigningKeys(db, keys, now);
  return signingKeyRows(db);
}

const algorithmOrder = (alg: string) => {
  const index = signingAlgorithms.indexOf(alg as (typeof signingAlgorithms)[number]);
  return index < 0 ? signingAlgorithms.length : index;
};

/**
 * Opens the stored keys as they stand at `now`. A key that does not open stops the start rather than
 * being replaced: tokens in flight depend on it.
 */
export async function openSigningKeys(
  db: Database,
  sealer: Sealer,
  rows: readonly SigningKeyRow[],
  now: number,
): Promise<OpenedSigningKeys> {
  const roles = keyRoles(rows, now);
  const ordered = rows.toSorted(
    (a, b) => algorithmOrder(a.alg) - algorithmOrder(b.alg) || b.generation - a.generation,
  );
  const opened = await Promise.all(
    ordered.map(async (row) => {
      const text = await openStoredSecret(sealer, row.privateJwk, sealingContext(row.kid), (sealed) =>
        updateSigningKeyJwk(db, row.kid, sealed),
      );
      return { role: roles.get(row.kid), jwk: JSON.parse(text) as JWK };
    }),
  );
  return {
    signing: opened.filter((key) => key.role === "signing").map((key) => key.jwk),
    verifyOnly: opened.filter((key) => key.role !== "signing").map((key) => key.jwk),
  };
}

/** The keys as they stand now, made on first start. */
export async function loadSigningKeys(
  db: Database,
  sealer: Sealer,
  now = Date.now(),
): Promise<OpenedSigningKeys> {
  return openSigningKeys(db, sealer, await ensureSigningKeys(db, sealer, now), now);
}

/**
 * The keys as the engine takes them: the ones that only verify say so in `key_ops`, which keeps the
 * engine from signing with them while it publishes them.
 */
export function engineKeys({ signing, verifyOnly }: OpenedSigningKeys): JWK[] {
  return [...signing, ...verifyOnly.map((key) => ({ ...key, key_ops: ["verify"] }))];
}
