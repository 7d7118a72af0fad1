import { importJWK, type JWK } from "jose";
import { newPrivateSigningJwk } from "../oidc/keys.ts";
import { sealedSettingOrCreate } from "../secrets/sealed-settings.ts";
import type { Sealer } from "../secrets/sealing.ts";
import type { Database } from "../store/database.ts";

// The key Vrata signs its client assertions with at providers that take private_key_jwt (RFC 7523,
// OIDC Core §9). One key serves every provider: each assertion names its provider as the audience.

/** What every provider verifies (OIDC Discovery: token endpoints SHOULD support RS256). */
export const clientKeyAlgorithm = "RS256";

const settingKey = "upstreamClientKey";

export interface UpstreamClientKey {
  privateKey: CryptoKey;
  kid: string;
  /** What the providers fetch from Vrata's JWKS URL. */
  publicJwk: JWK;
}

/**
 * The instance's client-assertion key, made on first need and kept sealed in the store with the
 * other instance secrets: every instance on the store signs with the same key, and a copy of the
 * database alone does not reveal it.
 */
export async function loadUpstreamClientKey(db: Database, sealer: Sealer): Promise<UpstreamClientKey> {
  const stored = await sealedSettingOrCreate(db, sealer, settingKey, async () =>
    JSON.stringify(await newPrivateSigningJwk(clientKeyAlgorithm)),
  );
  const jwk = JSON.parse(stored) as JWK & { kid: string };
  const { kty, n, e, kid, alg, use } = jwk;
  return {
    privateKey: (await importJWK(jwk, clientKeyAlgorithm)) as CryptoKey,
    kid,
    publicJwk: { kty, n, e, kid, alg, use },
  };
}
