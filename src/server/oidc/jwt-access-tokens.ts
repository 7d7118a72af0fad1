import {
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type KeyObject,
} from "jose";
import type Provider from "oidc-provider";
import type { AccessToken, Client, ClientCredentials, KoaContextWithOIDC } from "oidc-provider";
import { clockToleranceSeconds } from "../../common/limits.ts";
import { newId } from "../ids.ts";
import type { Sealer } from "../secrets/sealing.ts";
import type { Database } from "../store/database.ts";
import { findOidcModel, upsertOidcModel } from "../store/oidc-models.ts";
import type { AppAccount } from "./accounts.ts";
import { accessTokenType, ownerOf } from "./client-extras.ts";
import type { OpenedSigningKeys } from "./keys.ts";

// JWT access tokens (RFC 9068) for clients whose template asks for them. The engine issues every access
// token opaque and keeps it in the store; Vrata hands JWT clients a signed JWT that stands for that
// token instead. Its `jti` is a fresh identifier linked to the opaque token, so the JWT carries no
// usable secret of its own, and userinfo, introspection and revocation act on the opaque token it
// stands for: revoking either ends both, and DPoP binding and grant checks stay the engine's. The link
// keeps the opaque token sealed: the store must hold no usable token.

const linkModel = "JwtAccessToken";
const jwtType = "at+jwt";
const linkContext = (jti: string) => `${linkModel}:${jti}`;

/** A compact JWS: header, payload and signature. Opaque tokens never contain a dot. */
export const looksLikeJwt = (value: string): boolean => value.split(".").length === 3;

export interface JwtAccessTokenOptions {
  db: Database;
  issuer: string;
  keys: OpenedSigningKeys;
  sealer: Sealer;
}

/** The public half of a key, as the published keys hold it. */
const publicPart = ({ kty, kid, alg, use, n, e, crv, x, y }: JWK): JWK => ({
  kty,
  kid,
  alg,
  use,
  n,
  e,
  crv,
  x,
  y,
});

interface KeyUse {
  /** The key that signs, imported on first use. */
  signer: { jwk: JWK; key?: Promise<KeyObject | Uint8Array> };
  verification: ReturnType<typeof createLocalJWKSet>;
}

/** Signing with the first signing key (RS256, which every client supports), verifying with all. */
function keyUse({ signing, verifyOnly }: OpenedSigningKeys): KeyUse {
  const [first] = signing;
  if (!first) throw new Error("no signing key");
  return {
    signer: { jwk: first },
    verification: createLocalJWKSet({ keys: [...signing, ...verifyOnly].map(publicPart) }),
  };
}

export class JwtAccessTokens {
  readonly #db: Database;
  readonly #issuer: string;
  readonly #sealer: Sealer;
  /** Replaced whole when the keys change: a token is signed with one key and its own kid. */
  #keys: KeyUse;

  constructor({ db, issuer, keys, sealer }: JwtAccessTokenOptions) {
    this.#db = db;
    this.#issuer = issuer;
    this.#sealer = sealer;
    this.#keys = keyUse(keys);
  }

  useKeys(keys: OpenedSigningKeys): void {
    this.#keys = keyUse(keys);
  }

  /** Signs a JWT that stands for the engine's opaque token `value` and links the two in the store. */
  async issue(
    token: AccessToken | ClientCredentials,
    value: string,
    client: Client,
    /** The identity the app knows the person by; none for a service client's token. */
    personSubject: string | undefined,
  ): Promise<string> {
    const { organizationId, applicationId } = ownerOf(client);
    const jti = newId();
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + token.expiration;
    // A service token's subject is its application (extraTokenClaims); a person's is the scoped ID.
    const subject = personSubject ?? (token.extra?.sub as string | undefined) ?? client.clientId;
    const grantId = "grantId" in token ? token.grantId : undefined;

    await upsertOidcModel(this.#db, {
      model: linkModel,
      id: jti,
      payload: JSON.stringify({ token: this.#sealer.seal(value, linkContext(jti)) }),
      grantId: grantId ?? null,
      uid: null,
      userCode: null,
      expiresAt: expiresAt * 1000,
    });
    const { signer } = this.#keys;
    signer.key ??= importJWK(signer.jwk, signer.jwk.alg);
    return new SignJWT({
      client_id: client.clientId,
      ...(token.scope ? { scope: token.scope } : {}),
      ...(token.jkt ? { cnf: { jkt: token.jkt } } : {}),
    })
      .setProtectedHeader({ alg: signer.jwk.alg ?? "RS256", kid: signer.jwk.kid, typ: jwtType })
      .setIssuer(this.#issuer)
      .setSubject(subject)
      .setAudience([organizationId, applicationId, client.clientId])
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(jti)
      .sign(await signer.key);
  }

  /**
   * The opaque token a JWT access token of Vrata's stands for, or undefined when the JWT is not one:
   * a bad signature, another issuer, expired, or its token is gone (revoked, or its grant ended).
   */
  async opaqueTokenOf(jwt: string): Promise<string | undefined> {
    try {
      if (decodeProtectedHeader(jwt).typ !== jwtType) return undefined;
      const { payload } = await jwtVerify(jwt, this.#keys.verification, {
        issuer: this.#issuer,
        typ: jwtType,
        clockTolerance: clockToleranceSeconds,
      });
      if (typeof payload.jti !== "string") return undefined;
      const link = await findOidcModel(this.#db, linkModel, payload.jti, Date.now());
      if (!link) return undefined;
      return this.#sealer.open(
        (JSON.parse(link.payload) as { token: string }).token,
        linkContext(payload.jti),
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * Token responses to JWT clients carry the JWT instead of the opaque token. The engine has built the
 * response by then; the client and the token it issued are on the request's context.
 */
export function answerWithJwtAccessTokens(provider: Provider, tokens: JwtAccessTokens): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    if (oidc?.route !== "token" || ctx.status !== 200 || accessTokenType(oidc.client) !== "jwt") return;
    const body = ctx.body as { access_token?: unknown };
    const token = oidc.entities.AccessToken ?? oidc.entities.ClientCredentials;
    if (!oidc.client || !token || typeof body.access_token !== "string") return;
    const person = oidc.account as AppAccount | undefined;
    body.access_token = await tokens.issue(token, body.access_token, oidc.client, person?.membershipId);
  });
}
