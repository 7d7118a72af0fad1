import type { FastifyBaseLogger } from "fastify";
import type { Context } from "../../common/api/context.ts";
import type { ProviderSettings } from "../config.ts";
import { HttpError } from "../http/errors.ts";
import { OidcUpstream } from "./oidc.ts";
import type { Upstream } from "./upstream.ts";

/** A type of provider whose module has not landed: listed, but its sign-ins are not available yet. */
function notImplemented(settings: ProviderSettings): Upstream {
  const refuse = () => {
    throw new HttpError(501, "notImplemented", `${settings.type} providers are not available yet`);
  };
  return {
    key: settings.key,
    type: settings.type,
    name: settings.name,
    start: () => Promise.resolve(refuse()),
    answerOf: () => ({ state: undefined, error: undefined }),
    finish: () => Promise.resolve(refuse()),
  };
}

/** The configured third-party providers by key, each built by the module of its type. */
export class ProviderRegistry {
  readonly #byKey: Map<string, Upstream>;

  constructor(upstreams: Upstream[]) {
    this.#byKey = new Map(upstreams.map((upstream) => [upstream.key, upstream]));
  }

  get(key: string): Upstream | undefined {
    return this.#byKey.get(key);
  }

  /** What /context.json says about them: the start step shows a button for each. */
  listed(): Context["providers"] {
    return [...this.#byKey.values()].map(({ key, name, type }) => ({ key, name, type }));
  }
}

/**
 * Builds the providers of the configuration and discovers the OIDC ones, all at once. One that
 * cannot be discovered is logged and stays unavailable; Vrata starts all the same.
 */
export async function openProviders(
  settings: readonly ProviderSettings[],
  issuer: string,
  log: FastifyBaseLogger,
): Promise<ProviderRegistry> {
  const upstreams = settings.map((entry) =>
    entry.type === "oidc" ? new OidcUpstream(entry, issuer, log) : notImplemented(entry),
  );
  await Promise.all(
    upstreams.flatMap((upstream) => (upstream instanceof OidcUpstream ? [upstream.discover()] : [])),
  );
  return new ProviderRegistry(upstreams);
}
