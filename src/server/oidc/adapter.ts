import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database } from "../store/database.ts";
import {
  consumeOidcModel,
  destroyOidcGrant,
  destroyOidcModel,
  findOidcModel,
  findOidcModelByUid,
  findOidcModelByUserCode,
  findTokensById,
  tokenModels,
  upsertOidcModel,
  type OidcModelRow,
} from "../store/oidc-models.ts";
import { findClientMetadata } from "./clients.ts";
import type { JwtAccessTokens } from "./jwt-access-tokens.ts";

function toPayload(row: OidcModelRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  return row.consumedAt === null ? payload : { ...payload, consumed: Math.floor(row.consumedAt / 1000) };
}

/**
 * Looks a token value up once for all its possible models: the engine asks for it as an access token,
 * a client credentials token and a refresh token at the same moment, and they share one query.
 */
class TokenLookup {
  readonly #db: Database;
  readonly #inFlight = new Map<string, Promise<Map<string, OidcModelRow>>>();

  constructor(db: Database) {
    this.#db = db;
  }

  async find(model: string, id: string): Promise<OidcModelRow | undefined> {
    let rows = this.#inFlight.get(id);
    if (!rows) {
      rows = findTokensById(this.#db, id, Date.now()).finally(() => this.#inFlight.delete(id));
      this.#inFlight.set(id, rows);
    }
    return (await rows).get(model);
  }
}

/** Keeps oidc-provider's artifacts (sessions, grants, codes, tokens, interactions) in the store. */
class StoreAdapter implements Adapter {
  readonly #db: Database;
  readonly #model: string;
  readonly #tokens: TokenLookup | undefined;

  constructor(db: Database, model: string, tokens?: TokenLookup) {
    this.#db = db;
    this.#model = model;
    this.#tokens = tokens;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    await upsertOidcModel(this.#db, {
      model: this.#model,
      id,
      payload: JSON.stringify(payload),
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt: expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = this.#tokens
      ? await this.#tokens.find(this.#model, id)
      : await findOidcModel(this.#db, this.#model, id, Date.now());
    return toPayload(row);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return toPayload(await findOidcModelByUid(this.#db, this.#model, uid, Date.now()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return toPayload(await findOidcModelByUserCode(this.#db, this.#model, userCode, Date.now()));
  }

  async consume(id: string): Promise<void> {
    await consumeOidcModel(this.#db, this.#model, id, Date.now());
  }

  async destroy(id: string): Promise<void> {
    await destroyOidcModel(this.#db, this.#model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await destroyOidcGrant(this.#db, grantId);
  }
}

/** Access tokens are found by their opaque value, or by a JWT of Vrata's that stands for one. */
class AccessTokenAdapter extends StoreAdapter {
  readonly #jwtAccessTokens: JwtAccessTokens;

  constructor(db: Database, model: string, tokens: TokenLookup, jwtAccessTokens: JwtAccessTokens) {
    super(db, model, tokens);
    this.#jwtAccessTokens = jwtAccessTokens;
  }

  override async find(id: string): Promise<AdapterPayload | undefined> {
    const opaque = await this.#jwtAccessTokens.resolve(id);
    return opaque === undefined ? undefined : super.find(opaque);
  }
}

/**
 * Clients are not registered with oidc-provider: they come from organization applications, so the
 * "Client" model only reads them.
 */
class ClientAdapter implements Adapter {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return findClientMetadata(this.#db, id);
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

export function adapterFactory(db: Database, jwtAccessTokens: JwtAccessTokens): (model: string) => Adapter {
  const tokens = new TokenLookup(db);
  return (model) => {
    if (model === "Client") return new ClientAdapter(db);
    if (accessTokenModels.has(model)) return new AccessTokenAdapter(db, model, tokens, jwtAccessTokens);
    return new StoreAdapter(db, model, isTokenModel(model) ? tokens : undefined);
  };
}
