import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Sealer } from "../secrets/sealing.ts";
import { openStoredSecret } from "../secrets/stored-secret.ts";
import type { Database } from "../store/database.ts";
import { activeSigningKeys, insertSigningKey, updateSigningKeyJwk } from "../store/instance.ts";

/** Algorithms Vrata always has a signing key for. RS256 comes first: it is what every client supports. */
export const signingAlgorithms = ["RS256", "ES256"] as const;

/** Binds a sealed private key to its row: a sealed key copied to another row does not open. */
const sealingContext = (kid: string) => `signing_keys:${kid}`;

async function generateSigningKey(
  alg: string,
  sealer: Sealer,
): Promise<{ kid: string; alg: string; privateJwk: string }> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk, "sha256");
  const privateJwk = JSON.stringify({ ...jwk, kid, alg, use: "sig" });
  return { kid, alg, privateJwk: sealer.seal(privateJwk, sealingContext(kid)) };
}

/**
 * The private signing keys, generating and storing the missing ones (sealed) on first start. Keys
 * stay until retired, so tokens signed before a restart still verify against the same JWKS. A key
 * that does not open stops the start rather than being replaced: tokens in flight depend on it.
 */
export async function loadSigningKeys(db: Database, sealer: Sealer): Promise<JWK[]> {
  let stored = await activeSigningKeys(db);
  const missing = signingAlgorithms.filter((alg) => !stored.some((key) => key.alg === alg));
  if (missing.length > 0) {
    const now = Date.now();
    for (const alg of missing) await insertSigningKey(db, await generateSigningKey(alg, sealer), now);
    stored = await activeSigningKeys(db);
  }
  const order = (alg: string) => signingAlgorithms.indexOf(alg as (typeof signingAlgorithms)[number]);
  const opened = await Promise.all(
    stored.map(async (key) => ({
      alg: key.alg,
      jwk: await openStoredSecret(sealer, key.privateJwk, sealingContext(key.kid), (sealed) =>
        updateSigningKeyJwk(db, key.kid, sealed),
      ),
    })),
  );
  return opened.toSorted((a, b) => order(a.alg) - order(b.alg)).map((key) => JSON.parse(key.jwk) as JWK);
}
