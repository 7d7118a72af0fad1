import { errors, type Adapter, type AdapterPayload } from "oidc-provider";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import type { Database } from "../store/database.ts";
import {
  consumeOidcModel,
  destroyOidcGrant,
  destroyOidcModel,
  findOidcModel,
  findOidcModelByUid,
  findOidcModelByUserCode,
  findTokensById,
  takeOidcModel,
  tokenModels,
  upsertOidcModel,
  type OidcModelRow,
} from "../store/oidc-models.ts";
import { findClientMetadata } from "./clients.ts";
import { looksLikeJwt, type JwtAccessTokens } from "./jwt-access-tokens.ts";
import { revealedPayload, storedPayload } from "./stored-payload.ts";

/** What the adapter keeps secret: the key of every artifact's ID, and the one of sealed values. */
type AdapterSecrets = Pick<InstanceSecrets, "tokenIds" | "sealer">;

/** One lookup of a token (by the keyed hash of its value), joined by every model asked for in the turn it began in. */
class PendingLookup {
  readonly models = new Set<string>();
  /** Set once the query has started with the models asked for until then. */
  started = false;
  readonly rows: Promise<Map<string, OidcModelRow>>;

  constructor(query: (models: string[]) => Promise<Map<string, OidcModelRow>>) {
    this.rows = new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => {
      this.started = true;
      return query([...this.models]);
    });
  }
}

/**
 * Looks a presented token up once for all the models it is asked for at the same moment: at
 * introspection and revocation the engine asks for it as an access token, a client credentials token
 * and a refresh token at once, and the three share one query. A token asked for as one model alone
 * (userinfo, refresh) gets the cheaper lookup of that model alone.
 */
class TokenLookup {
  readonly #db: Database;
  readonly #pending = new Map<string, PendingLookup>();

  constructor(db: Database) {
    this.#db = db;
  }

  find(model: string, key: string): Promise<OidcModelRow | undefined> {
    let lookup = this.#pending.get(key);
    if (lookup?.started && !lookup.models.has(model)) {
      return findOidcModel(this.#db, model, key, Date.now());
    }
    if (!lookup) {
      const pending = new PendingLookup((models) => this.#query(models, key));
      void pending.rows.finally(() => this.#pending.delete(key)).catch(() => undefined);
      this.#pending.set(key, pending);
      lookup = pending;
    }
    lookup.models.add(model);
    return lookup.rows.then((rows) => rows.get(model));
  }

  async #query(models: string[], key: string): Promise<Map<string, OidcModelRow>> {
    const [model] = models;
    if (models.length === 1 && model !== undefined) {
      const row = await findOidcModel(this.#db, model, key, Date.now());
      return new Map(row ? [[model, row]] : []);
    }
    return findTokensById(this.#db, key, Date.now());
  }
}

/**
 * Keeps oidc-provider's artifacts (sessions, grants, codes, tokens, interactions) in the store. Their
 * IDs are the token, code and cookie values themselves: the store keeps each under the keyed hash of
 * its ID (and of its user code), so that a copy of the store holds none of them. The engine always
 * looks up by the value, which is hashed again to find the row.
 */
class StoreAdapter implements Adapter {
  readonly #db: Database;
  readonly #model: string;
  readonly #secrets: AdapterSecrets;
  readonly #tokens: TokenLookup | undefined;

  constructor(db: Database, model: string, secrets: AdapterSecrets, tokens?: TokenLookup) {
    this.#db = db;
    this.#model = model;
    this.#secrets = secrets;
    this.#tokens = tokens;
  }

  #toPayload(row: OidcModelRow | undefined, id?: string): AdapterPayload | undefined {
    if (!row) return undefined;
    const payload = revealedPayload(this.#secrets.sealer, row.payload, id);
    return row.consumedAt === null ? payload : { ...payload, consumed: Math.floor(row.consumedAt / 1000) };
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    await upsertOidcModel(this.#db, {
      model: this.#model,
      id: this.#secrets.tokenIds(id),
      payload: storedPayload(this.#secrets.sealer, id, payload),
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode === undefined ? null : this.#secrets.tokenIds(payload.userCode),
      expiresAt: expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const key = this.#secrets.tokenIds(id);
    const row = this.#tokens
      ? await this.#tokens.find(this.#model, key)
      : await findOidcModel(this.#db, this.#model, key, Date.now());
    return this.#toPayload(row, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#toPayload(await findOidcModelByUid(this.#db, this.#model, uid, Date.now()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const key = this.#secrets.tokenIds(userCode);
    return this.#toPayload(await findOidcModelByUserCode(this.#db, this.#model, key, Date.now()));
  }

  /**
   * A code or refresh token another request consumed since the engine found it unused is one used
   * twice: refused, and its grant revoked, as the engine does when it sees the reuse itself.
   */
  async consume(id: string): Promise<void> {
    const key = this.#secrets.tokenIds(id);
    if (await consumeOidcModel(this.#db, this.#model, key, Date.now())) return;
    const grantId = this.#toPayload(await findOidcModel(this.#db, this.#model, key, Date.now()), id)?.grantId;
    if (grantId) await revokeGrant(this.#db, this.#secrets, grantId);
    // In the engine's words for a second use of each.
    if (this.#model === "PushedAuthorizationRequest")
      throw new errors.InvalidRequestUri("request_uri is invalid, expired, or was already used");
    throw new errors.InvalidGrant(`the ${this.#model} was used already`);
  }

  async destroy(id: string): Promise<void> {
    await destroyOidcModel(this.#db, this.#model, this.#secrets.tokenIds(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await destroyOidcGrant(this.#db, grantId);
  }
}

/** The grant and everything issued under it. */
async function revokeGrant(db: Database, secrets: AdapterSecrets, grantId: string): Promise<void> {
  await destroyOidcGrant(db, grantId);
  await destroyOidcModel(db, "Grant", secrets.tokenIds(grantId));
}

/** Access tokens are found by their opaque value, or by a JWT of Vrata's that stands for one. */
class AccessTokenAdapter extends StoreAdapter {
  readonly #jwtAccessTokens: JwtAccessTokens;

  constructor(
    db: Database,
    model: string,
    secrets: AdapterSecrets,
    tokens: TokenLookup,
    jwtAccessTokens: JwtAccessTokens,
  ) {
    super(db, model, secrets, tokens);
    this.#jwtAccessTokens = jwtAccessTokens;
  }

  override async find(id: string): Promise<AdapterPayload | undefined> {
    // An opaque value is looked up at once, in the same turn as the engine's other models (TokenLookup).
    const opaque = looksLikeJwt(id) ? await this.#jwtAccessTokens.opaqueTokenOf(id) : id;
    return opaque === undefined ? undefined : super.find(opaque);
  }
}

/**
 * An interaction is resumed once. The engine reads it at its resume address, then destroys it and
 * goes on to issue a code: a removal that finds nothing left is a resume another request made
 * meanwhile, refused as the engine refuses the resume of an interaction that is gone. Of resumes
 * sent at the same moment, to one instance or several, one gives the app a code.
 */
class InteractionAdapter extends StoreAdapter {
  readonly #db: Database;
  readonly #secrets: AdapterSecrets;

  constructor(db: Database, model: string, secrets: AdapterSecrets) {
    super(db, model, secrets);
    this.#db = db;
    this.#secrets = secrets;
  }

  override async destroy(id: string): Promise<void> {
    if ((await takeOidcModel(this.#db, "Interaction", this.#secrets.tokenIds(id))) === undefined)
      throw new errors.SessionNotFound("interaction session not found");
  }
}

/**
 * Clients are not registered with oidc-provider: they come from organization applications, so the
 * "Client" model only reads them.
 */
class ClientAdapter implements Adapter {
  readonly #db: Database;
  readonly #issuer: string;

  constructor(db: Database, issuer: string) {
    this.#db = db;
    this.#issuer = issuer;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return findClientMetadata(this.#db, this.#issuer, id);
  }

  upsert(): Promise<void> {
    return Promise.reject(new Error("clients are managed through organizations"));
  }
  findByUid = () => Promise.resolve(undefined);
  findByUserCode = () => Promise.resolve(undefined);
  consume = () => Promise.resolve();
  destroy = () => Promise.resolve();
  revokeByGrantId = () => Promise.resolve();
}

const accessTokenModels = new Set(["AccessToken", "ClientCredentials"]);
const isTokenModel = (model: string) => (tokenModels as readonly string[]).includes(model);

export function adapterFactory(
  db: Database,
  jwtAccessTokens: JwtAccessTokens,
  secrets: AdapterSecrets,
  issuer: string,
): (model: string) => Adapter {
  const tokens = new TokenLookup(db);
  return (model) => {
    if (model === "Client") return new ClientAdapter(db, issuer);
    if (model === "Interaction") return new InteractionAdapter(db, model, secrets);
    if (accessTokenModels.has(model)) {
      return new AccessTokenAdapter(db, model, secrets, tokens, jwtAccessTokens);
    }
    return new StoreAdapter(db, model, secrets, isTokenModel(model) ? tokens : undefined);
  };
}
