import type { FastifyBaseLogger } from "fastify";
import type { Context } from "../../common/api/context.ts";
import type { ProviderSettings } from "../config.ts";
import type { SamlProvider } from "./saml.ts";
import type { RecordAssertionUse } from "./saml/assertion-uses.ts";
import type { SamlSpCredentials } from "./saml/sp-credentials.ts";
import type { Upstream } from "./upstream.ts";

const isSaml = (upstream: Upstream | undefined): upstream is SamlProvider => upstream?.type === "saml";

/** The configured third-party providers by key, each built by the module of its type. */
export class ProviderRegistry {
  readonly #byKey: Map<string, Upstream>;

  constructor(upstreams: Upstream[]) {
    this.#byKey = new Map(upstreams.map((upstream) => [upstream.key, upstream]));
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

/**
 * Builds the providers of the configuration: discovers the OIDC ones and reads the SAML IdPs'
 * metadata, all at once. One that cannot be discovered is logged and stays unavailable; Vrata starts
 * all the same. SAML providers share the instance's service-provider key, made on first need.
 * The module of a type, with the libraries it takes, is loaded only when a provider of it is
 * configured: most instances have none, and their workers do without.
 */
export async function openProviders(
  settings: readonly ProviderSettings[],
  options: {
    issuer: string;
    title: string;
    log: FastifyBaseLogger;
    samlCredentials: () => Promise<SamlSpCredentials>;
    /** Where SAML providers keep the assertions they accepted. */
    samlAssertionUses: RecordAssertionUse;
  },
): Promise<ProviderRegistry> {
  const { issuer, title, log, samlAssertionUses: recordAssertionUse } = options;
  const saml = settings.filter((entry) => entry.type === "saml");
  const credentials = saml.length > 0 ? await options.samlCredentials() : undefined;
  const upstreams = await Promise.all(
    settings.map(async (entry): Promise<Upstream> => {
      if (entry.type === "oidc") {
        const { OidcUpstream } = await import("./oidc.ts");
        const upstream = new OidcUpstream(entry, issuer, log);
        await upstream.discover();
        return upstream;
      }
      if (!credentials) throw new Error("SAML providers need the service-provider key");
      const { SamlProvider } = await import("./saml.ts");
      return SamlProvider.open(entry, { issuer, title, credentials, recordAssertionUse, log });
    }),
  );
  return new ProviderRegistry(upstreams);
}
