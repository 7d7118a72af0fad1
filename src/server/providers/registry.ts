import type { FastifyBaseLogger } from "fastify";
import type { JSONWebKeySet } from "jose";
import type { Context } from "../../common/api/context.ts";
import { ConfigError, type OidcProviderSettings, type ProviderSettings } from "../config.ts";
import type { UpstreamClientKey } from "./client-key.ts";
import type { SamlProvider } from "./saml.ts";
import type { RecordAssertionUse } from "./saml/assertion-uses.ts";
import type { SamlSpCredentials } from "./saml/sp-credentials.ts";
import { UpstreamMisconfigured, type Upstream } from "./upstream.ts";

const isSaml = (upstream: Upstream | undefined): upstream is SamlProvider => upstream?.type === "saml";

/** The configured third-party providers by key, each built by the module of its type. */
export class ProviderRegistry {
  readonly #byKey: Map<string, Upstream>;
  readonly #clientKey: UpstreamClientKey | undefined;

  constructor(upstreams: Upstream[], clientKey?: UpstreamClientKey) {
    this.#byKey = new Map(upstreams.map((upstream) => [upstream.key, upstream]));
    this.#clientKey = clientKey;
  }

  /** The key providers verify Vrata's private_key_jwt assertions with; none when no provider takes them. */
  clientJwks(): JSONWebKeySet | undefined {
    return this.#clientKey ? { keys: [this.#clientKey.publicJwk] } : undefined;
  }

  get(key: string): Upstream | undefined {
    return this.#byKey.get(key);
  }

  /** The SAML provider configured under `key`: its service-provider metadata is served. */
  saml(key: string): SamlProvider["saml"] | undefined {
    const upstream = this.#byKey.get(key);
    return isSaml(upstream) ? upstream.saml : undefined;
  }

  /** Stops refreshing the IdPs' metadata. */
  close(): void {
    for (const upstream of this.#byKey.values()) if (isSaml(upstream)) upstream.close();
  }

  /** What /context.json says about them: the start step shows a button for each. */
  listed(): Context["providers"] {
    return [...this.#byKey.values()].map(({ key, name, type }) => ({ key, name, type }));
  }
}

/** A provider's entry that its own discovery contradicts stops the start, naming the entry. */
async function openOidc(
  entry: OidcProviderSettings,
  options: { issuer: string; log: FastifyBaseLogger; clientKey: UpstreamClientKey | undefined },
): Promise<Upstream> {
  const { OidcUpstream } = await import("./oidc.ts");
  const upstream = new OidcUpstream(entry, options);
  try {
    await upstream.discover();
  } catch (error) {
    if (error instanceof UpstreamMisconfigured) throw new ConfigError(`${entry.entry}.${error.message}`);
    throw error;
  }
  return upstream;
}

/**
 * Builds the providers of the configuration: discovers the OIDC ones and reads the SAML IdPs'
 * metadata, all at once. One that cannot be discovered is logged and stays unavailable; Vrata starts
 * all the same, unless the provider's document contradicts its entry. SAML providers share the
 * instance's service-provider keys, and OIDC providers that take private_key_jwt the instance's
 * client-assertion key, each made on first need. The module of a type, with the libraries it takes,
 * is loaded only when a provider of it is configured: most instances have none, and their workers
 * do without.
 */
export async function openProviders(
  settings: readonly ProviderSettings[],
  options: {
    issuer: string;
    title: string;
    log: FastifyBaseLogger;
    samlCredentials: () => Promise<SamlSpCredentials>;
    clientKey: () => Promise<UpstreamClientKey>;
    /** Where SAML providers keep the assertions they accepted. */
    samlAssertionUses: RecordAssertionUse;
  },
): Promise<ProviderRegistry> {
  const { issuer, title, log, samlAssertionUses: recordAssertionUse } = options;
  const saml = settings.filter((entry) => entry.type === "saml");
  const credentials = saml.length > 0 ? await options.samlCredentials() : undefined;
  const signsAssertions = settings.some(
    (entry) => entry.type === "oidc" && entry.tokenEndpointAuthMethod === "private_key_jwt",
  );
  const clientKey = signsAssertions ? await options.clientKey() : undefined;
  const opened = await Promise.allSettled(
    settings.map(async (entry): Promise<Upstream> => {
      if (entry.type === "oidc") return openOidc(entry, { issuer, log, clientKey });
      if (!credentials) throw new Error("SAML providers need the service-provider keys");
      const { SamlProvider } = await import("./saml.ts");
      return SamlProvider.open(entry, { issuer, title, credentials, recordAssertionUse, log });
    }),
  );
  const registry = new ProviderRegistry(
    opened.flatMap((result) => (result.status === "fulfilled" ? [result.value] : [])),
    clientKey,
  );
  const failed = opened.find((result) => result.status === "rejected");
  if (failed) {
    // The ones that did open stop refreshing their metadata: Vrata does not start.
    registry.close();
    throw failed.reason;
  }
  return registry;
}
