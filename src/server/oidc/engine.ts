import type { JWK } from "jose";
import type Provider from "oidc-provider";
import type { JwtAccessTokens } from "./jwt-access-tokens.ts";
import { engineKeys, type OpenedSigningKeys } from "./keys.ts";

type Setup = (provider: Provider) => unknown;

/**
 * The OIDC engine of the moment. oidc-provider takes its keys once, when it is made, so a change of
 * signing keys makes a new engine, prepared completely before it takes its first request; requests
 * already in the old one finish there. Both keep everything in the store, so a flow, session or token
 * of one is the other's too.
 */
export class Engine {
  readonly jwtAccessTokens: JwtAccessTokens;
  readonly #build: (keys: JWK[]) => Provider;
  readonly #setups: Setup[] = [];
  #current: { provider: Provider; keys: OpenedSigningKeys; prepared: unknown[] };

  constructor(keys: OpenedSigningKeys, jwtAccessTokens: JwtAccessTokens, build: (keys: JWK[]) => Provider) {
    this.jwtAccessTokens = jwtAccessTokens;
    this.#build = build;
    this.#current = { provider: build(engineKeys(keys)), keys, prepared: [] };
  }

  get provider(): Provider {
    return this.#current.provider;
  }

  /** The private keys the engine of the moment holds. */
  get keys(): OpenedSigningKeys {
    return this.#current.keys;
  }

  /**
   * Runs `setup` on this engine and on every later one before it serves (listeners, precomputed
   * documents); the function returned gives what it made for the engine of the moment.
   */
  async prepare<T>(setup: (provider: Provider) => T | Promise<T>): Promise<() => T> {
    const index = this.#setups.push(setup) - 1;
    const current = this.#current;
    current.prepared[index] = await setup(current.provider);
    return () => this.#current.prepared[index] as T;
  }

  /** Replaces the engine with one holding these keys; JWT access tokens follow at the same moment. */
  async useKeys(keys: OpenedSigningKeys): Promise<void> {
    const provider = this.#build(engineKeys(keys));
    const prepared: unknown[] = [];
    for (const setup of this.#setups) prepared.push(await setup(provider));
    this.jwtAccessTokens.useKeys(keys);
    this.#current = { provider, keys, prepared };
  }
}
