import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Database } from "../store/database.ts";
import { activeSigningKeys, insertSigningKey } from "../store/instance.ts";

/** Algorithms Vrata always has a signing key for. RS256 comes first: it is what every client supports. */
export const signingAlgorithms = ["RS256", "ES256"] as const;

async function generateSigningKey(alg: string): Promise<{ kid: string; alg: string; privateJwk: string }> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk, "sha256");
  return { kid, alg, privateJwk: JSON.stringify({ ...jwk, kid, alg, use: "sig" }) };
}

/**
 * The private signing keys, generating and storing the missing ones on first start. Keys stay until
 * retired, so tokens signed before a restart still verify against the same JWKS.
 */
export async function loadSigningKeys(db: Database): Promise<JWK[]> {
  let stored = await activeSigningKeys(db);
  const missing = signingAlgorithms.filter((alg) => !stored.some((key) => key.alg === alg));
  if (missing.length > 0) {
    const now = Date.now();
    for (const alg of missing) await insertSigningKey(db, await generateSigningKey(alg), now);
    stored = await activeSigningKeys(db);
  }
  const order = (alg: string) => signingAlgorithms.indexOf(alg as (typeof signingAlgorithms)[number]);
  return stored
    .toSorted((a, b) => order(a.alg) - order(b.alg))
    .map((key) => JSON.parse(key.privateJwk) as JWK);
}
