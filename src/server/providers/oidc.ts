import fs from "node:fs/promises";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import * as client from "openid-client";
import { clockToleranceSeconds, discoveryTimeoutMs } from "../../common/limits.ts";
import type { OidcProviderSettings } from "../config.ts";
import {
  callbackUrl,
  UpstreamRefused,
  UpstreamUnavailable,
  type Upstream,
  type UpstreamAnswer,
  type UpstreamIdentity,
  type UpstreamProfile,
} from "./upstream.ts";

// An upstream OpenID Connect provider (reference §4.7.5), with openid-client: discovery at start,
// the authorization code flow with state, nonce and PKCE S256, and the ID token checked (signature,
// issuer, audience, nonce, expiry) before its `sub` names the person.

/** How often an unreachable provider is asked again for its discovery document. */
const rediscoverAfterMs = 60_000;

interface OidcRequestData {
  nonce: string;
  codeVerifier?: string;
}

async function clientSecretOf(settings: OidcProviderSettings): Promise<string | undefined> {
  const source = settings.clientSecret;
  if (!source) return undefined;
  if (source.kind === "env") {
    const value = process.env[source.name];
    if (!value)
      throw new Error(`the environment variable ${source.name} holding its client secret is not set`);
    return value;
  }
  const value = (await fs.readFile(source.file, "utf8")).trim();
  if (!value) throw new Error(`its client secret file ${source.file} is empty`);
  return value;
}

function clientAuthentication(
  metadata: client.ServerMetadata,
  secret: string | undefined,
): client.ClientAuth {
  if (secret === undefined) return client.None();
  const methods = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  return methods.includes("client_secret_basic")
    ? client.ClientSecretBasic(secret)
    : client.ClientSecretPost(secret);
}

async function discover(settings: OidcProviderSettings): Promise<client.Configuration> {
  const secret = await clientSecretOf(settings);
  const discovered = await client.discovery(
    new URL(settings.issuer),
    settings.clientId,
    undefined,
    undefined,
    {
      timeout: discoveryTimeoutMs / 1000,
    },
  );
  // The document as data (without its helper methods), with the token endpoint a provider may lack.
  const metadata: client.ServerMetadata = {
    ...(JSON.parse(JSON.stringify(discovered.serverMetadata())) as client.ServerMetadata),
    ...(settings.tokenEndpoint === undefined ? {} : { token_endpoint: settings.tokenEndpoint }),
  };
  const configuration = new client.Configuration(
    metadata,
    settings.clientId,
    { [client.clockTolerance]: clockToleranceSeconds },
    clientAuthentication(metadata, secret),
  );
  configuration.timeout = discoveryTimeoutMs / 1000;
  return configuration;
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** The identity fields the standard claims fill; an e-mail counts as verified only when the provider says so. */
export function profileFromClaims(claims: Record<string, unknown>): UpstreamProfile {
  const profile: UpstreamProfile = { emailVerified: claims.email_verified === true };
  const fields: [keyof Omit<UpstreamProfile, "emailVerified">, unknown][] = [
    ["username", claims.preferred_username ?? claims.username],
    ["email", claims.email],
    ["givenName", claims.given_name],
    ["fullName", claims.name],
    ["pictureUrl", claims.picture],
  ];
  for (const [field, value] of fields) {
    const given = text(value);
    if (given !== undefined) profile[field] = given;
  }
  return profile;
}

export class OidcUpstream implements Upstream {
  readonly type = "oidc";
  readonly key: string;
  readonly name: Upstream["name"];
  readonly #settings: OidcProviderSettings;
  readonly #redirectUri: string;
  readonly #log: FastifyBaseLogger;
  #configuration: Promise<client.Configuration | undefined> | undefined;
  #failedAt = 0;

  constructor(settings: OidcProviderSettings, issuer: string, log: FastifyBaseLogger) {
    this.key = settings.key;
    this.name = settings.name;
    this.#settings = settings;
    this.#redirectUri = callbackUrl(issuer, settings.key);
    this.#log = log;
  }

  /**
   * Discovers the provider. A provider that cannot be discovered is logged and unavailable (its
   * sign-ins refused with `providerUnavailable`) rather than stopping Vrata; it is asked again at
   * most once a minute when someone chooses it.
   */
  discover(): Promise<client.Configuration | undefined> {
    this.#configuration = discover(this.#settings).then(
      (configuration) => {
        this.#log.info(`provider "${this.key}": discovered ${this.#settings.issuer}`);
        return configuration;
      },
      (error: unknown) => {
        this.#failedAt = Date.now();
        this.#log.error(
          `provider "${this.key}" is unavailable: discovery of ${this.#settings.issuer} failed (${(error as Error).message})`,
        );
        return undefined;
      },
    );
    return this.#configuration;
  }

  async #ready(): Promise<client.Configuration> {
    let configuration = await (this.#configuration ?? this.discover());
    if (!configuration && Date.now() - this.#failedAt > rediscoverAfterMs)
      configuration = await this.discover();
    if (!configuration) throw new UpstreamUnavailable(`provider "${this.key}" could not be discovered`);
    return configuration;
  }

  async start(state: string) {
    const configuration = await this.#ready();
    const nonce = client.randomNonce();
    const supportsS256 = configuration.serverMetadata().code_challenge_methods_supported?.includes("S256");
    const codeVerifier =
      supportsS256 || this.#settings.forcePkce ? client.randomPKCECodeVerifier() : undefined;
    const location = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#redirectUri,
      scope: this.#settings.scopes.join(" "),
      response_type: "code",
      state,
      nonce,
      ...(codeVerifier === undefined
        ? {}
        : {
            code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
            code_challenge_method: "S256",
          }),
    });
    const data: OidcRequestData = { nonce, ...(codeVerifier === undefined ? {} : { codeVerifier }) };
    return { location: location.href, data: { ...data } };
  }

  answerOf(request: FastifyRequest): UpstreamAnswer {
    const query = request.query as Record<string, unknown>;
    return { state: text(query.state), error: text(query.error) };
  }

  async finish(
    request: FastifyRequest,
    data: Record<string, unknown>,
    answer: UpstreamAnswer,
  ): Promise<UpstreamIdentity> {
    const configuration = await this.#ready();
    const { nonce, codeVerifier } = data as unknown as OidcRequestData;
    // The address the provider sent the browser to, as the provider built it.
    const current = new URL(this.#redirectUri);
    current.search = new URL(request.url, this.#redirectUri).search;
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(configuration, current, {
        expectedState: answer.state ?? "",
        expectedNonce: nonce,
        idTokenExpected: true,
        ...(codeVerifier === undefined ? {} : { pkceCodeVerifier: codeVerifier }),
      });
    } catch (error) {
      throw new UpstreamRefused((error as Error).message);
    }
    const claims = tokens.claims();
    if (!claims?.sub) throw new UpstreamRefused("the ID token names no subject");
    return { subject: claims.sub, profile: profileFromClaims(claims), claims: { ...claims } };
  }
}
