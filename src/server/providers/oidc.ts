import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import * as client from "openid-client";
import { clockToleranceSeconds, discoveryTimeoutMs } from "../../common/limits.ts";
import type { OidcProviderSettings } from "../config.ts";
import type { UpstreamClientKey } from "./client-key.ts";
import { clientAuthentication } from "./oidc-client-auth.ts";
import {
  callbackUrl,
  UpstreamMisconfigured,
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

/** The claims a profile is made of: an ID token with none of them is thin, and userinfo has them. */
const profileClaims = ["name", "given_name", "preferred_username", "email", "picture"];

interface OidcRequestData {
  nonce: string;
  codeVerifier?: string;
}

/** The issuer a discovery document named when it was not the one configured. */
function otherIssuerOf(error: unknown): string | undefined {
  if (!(error instanceof client.ClientError) || error.code !== "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED")
    return undefined;
  const cause = error.cause as { attribute?: unknown; body?: { issuer?: unknown } } | undefined;
  return cause?.attribute === "issuer" ? String(cause.body?.issuer) : undefined;
}

/**
 * Reads the provider's discovery document from the issuer exactly as configured: openid-client
 * appends /.well-known/openid-configuration after dropping a final "/" (OIDC Discovery §4.1) and
 * requires the document to name that issuer, which the ID tokens must then name character for character.
 */
async function discover(
  settings: OidcProviderSettings,
  clientKey: UpstreamClientKey | undefined,
): Promise<client.Configuration> {
  let discovered;
  try {
    discovered = await client.discovery(new URL(settings.issuer), settings.clientId, undefined, undefined, {
      timeout: discoveryTimeoutMs / 1000,
    });
  } catch (error) {
    const named = otherIssuerOf(error);
    if (named === undefined) throw error;
    throw new UpstreamMisconfigured(
      `issuer ${settings.issuer} is not the issuer the provider's discovery document names (${named}): write it exactly as the provider does`,
    );
  }
  // The document as data (without its helper methods), with the token endpoint a provider may lack.
  const metadata: client.ServerMetadata = {
    ...(JSON.parse(JSON.stringify(discovered.serverMetadata())) as client.ServerMetadata),
    ...(settings.tokenEndpoint === undefined ? {} : { token_endpoint: settings.tokenEndpoint }),
  };
  const configuration = new client.Configuration(
    metadata,
    settings.clientId,
    { [client.clockTolerance]: clockToleranceSeconds },
    await clientAuthentication(settings, metadata, clientKey),
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
  readonly #clientKey: UpstreamClientKey | undefined;
  #configuration: Promise<client.Configuration | undefined> | undefined;
  #failedAt = 0;

  constructor(
    settings: OidcProviderSettings,
    options: { issuer: string; log: FastifyBaseLogger; clientKey?: UpstreamClientKey | undefined },
  ) {
    this.key = settings.key;
    this.name = settings.name;
    this.#settings = settings;
    this.#redirectUri = callbackUrl(options.issuer, settings.key);
    this.#log = options.log;
    this.#clientKey = options.clientKey;
  }

  /**
   * Discovers the provider. A provider that cannot be discovered is logged and unavailable (its
   * sign-ins refused with `providerUnavailable`) rather than stopping Vrata; it is asked again at
   * most once a minute when someone chooses it. Rejects only when the provider's document
   * contradicts its settings ({@link UpstreamMisconfigured}): at start, that stops Vrata.
   */
  async discover(): Promise<void> {
    const attempt = discover(this.#settings, this.#clientKey).then(
      (configuration) => {
        this.#log.info(`provider "${this.key}": discovered ${this.#settings.issuer}`);
        return configuration;
      },
      (error: unknown) => {
        this.#failedAt = Date.now();
        this.#log.error(
          `provider "${this.key}" is unavailable: discovery of ${this.#settings.issuer} failed (${(error as Error).message})`,
        );
        if (error instanceof UpstreamMisconfigured) throw error;
        return undefined;
      },
    );
    this.#configuration = attempt.catch(() => undefined);
    await attempt;
  }

  async #ready(): Promise<client.Configuration> {
    let configuration = await this.#configuration;
    if (!configuration && Date.now() - this.#failedAt > rediscoverAfterMs) {
      await this.discover().catch(() => undefined);
      configuration = await this.#configuration;
    }
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
    const idToken = tokens.claims();
    if (!idToken?.sub) throw new UpstreamRefused("the ID token names no subject");
    const thin = !profileClaims.some((claim) => claim in idToken);
    const fromUserinfo = thin ? await this.#userinfo(configuration, tokens.access_token, idToken.sub) : {};
    // What the ID token says wins over userinfo; the two name the same subject.
    const claims = { ...fromUserinfo, ...idToken };
    return { subject: idToken.sub, profile: profileFromClaims(claims), claims };
  }

  /**
   * The person's claims from the provider's userinfo endpoint, for an ID token without them. An
   * answer about another subject than the ID token's is refused (OIDC Core §5.3.2), as is one that
   * fails: the person can try again.
   */
  async #userinfo(
    configuration: client.Configuration,
    accessToken: string,
    subject: string,
  ): Promise<Record<string, unknown>> {
    if (configuration.serverMetadata().userinfo_endpoint === undefined) return {};
    try {
      return { ...(await client.fetchUserInfo(configuration, accessToken, subject)) };
    } catch (error) {
      throw new UpstreamRefused(`userinfo: ${(error as Error).message}`);
    }
  }
}
