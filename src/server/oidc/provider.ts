import Provider, { type Configuration } from "oidc-provider";
import type { JWK } from "jose";
import { defaultRefreshTokenLifespanSeconds } from "../../common/api/template.ts";
import { routes } from "../../common/routes.ts";
import { acrValues } from "../../common/api/second-factor.ts";
import type { Database } from "../store/database.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import { findAccountFor, subjectFor } from "./accounts.ts";
import { grantAgreedBefore } from "./app-grants.ts";
import { adapterFactory } from "./adapter.ts";
import { appFetch, type AppAddresses } from "./app-fetch.ts";
import { enforceClientSecrets } from "./client-secrets.ts";
import { keepEngineClients } from "./clients.ts";
import { acceptClientScopes, engineScopeConfiguration } from "./client-scopes.ts";
import { mayIntrospect, mayRevoke } from "./token-policies.ts";
import { interactionPolicyForPeople } from "./interaction-policy.ts";
import { extraClientProperties, lifespan, ownerOf } from "./client-extras.ts";
import { engineErrorPage, protectEnginePages } from "./engine-pages.ts";
import { logoutPages } from "./logout-pages.ts";
import { answerWithJwtAccessTokens, type JwtAccessTokens } from "./jwt-access-tokens.ts";

export interface ProviderOptions {
  issuer: string;
  db: Database;
  signingKeys: JWK[];
  jwtAccessTokens: JwtAccessTokens;
  secrets: InstanceSecrets;
  cookieSecret: string;
  /** Trust X-Forwarded-* from a TLS-terminating proxy in front. */
  behindProxy: boolean;
  /** Where the engine's calls to apps (back-channel logout) may go. */
  appAddresses: AppAddresses;
}

const minute = 60;
const hour = 60 * minute;
const day = 24 * hour;
const year = 365 * day;

/** The engine's single sign-on cookie: `__Host-` makes browsers insist on Secure, Path=/ and no Domain. */
export const ssoSessionCookie = "__Host-vrata.session";

/**
 * Secure even behind a TLS-terminating proxy, where the engine learns of HTTPS from the proxy's
 * `X-Forwarded-Proto`: Vrata is only ever reached over HTTPS. The engine gives the flow's cookies
 * the path of the flow, so only the single sign-on cookie has a path here.
 */
const engineCookieOptions = { httpOnly: true, sameSite: "lax", secure: true } as const;
export const ssoCookieOptions = { ...engineCookieOptions, path: "/" } as const;

/** The OIDC engine, configured for Vrata's routes, store and policies (design.md §5). */
export function createProvider({
  issuer,
  db,
  signingKeys,
  jwtAccessTokens,
  secrets,
  cookieSecret,
  behindProxy,
  appAddresses,
}: ProviderOptions): Provider {
  const configuration: Configuration = {
    adapter: adapterFactory(db, jwtAccessTokens, secrets, issuer),
    jwks: { keys: signingKeys },
    routes: {
      authorization: routes.OIDCAuthorize.path,
      token: routes.OIDCToken.path,
      pushed_authorization_request: routes.OIDCPar.path,
      revocation: routes.OIDCRevoke.path,
      introspection: routes.OIDCIntrospect.path,
      userinfo: routes.OIDCUserinfo.path,
      jwks: routes.OIDCKeys.path,
      end_session: routes.OIDCEndSession.path,
    },
    interactions: {
      url: (_ctx, interaction) => `/auth/${interaction.uid}`,
      policy: interactionPolicyForPeople(db),
    },
    cookies: {
      keys: [cookieSecret],
      names: { session: ssoSessionCookie, interaction: "vrata.interaction", resume: "vrata.resume" },
      long: ssoCookieOptions,
      short: engineCookieOptions,
    },
    responseTypes: ["code"],
    pkce: { required: () => true },
    clientAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
    // Apps' own scopes are each client's (oidc/client-scopes.ts).
    scopes: engineScopeConfiguration,
    claims: {
      // `azp` names the app an ID token was issued to (spec §3); accounts give it to ID tokens only.
      // ID tokens also say how and how strongly the person signed in (`amr`, and `acr` of acrValues),
      // whether or not the app asked.
      openid: ["sub", "azp", "acr", "amr"],
      profile: ["name", "given_name", "preferred_username", "picture"],
      email: ["email", "email_verified"],
    },
    // The levels a sign-in reaches (accounts/second-factors.ts), published in discovery; ID tokens
    // carry the sign-in's `acr` and `amr`.
    acrValues: [...acrValues],
    allowOmittingSingleRegisteredRedirectUri: false,
    // Profile and e-mail claims go into the ID token too (design.md §5), not only to userinfo.
    conformIdTokenClaims: false,
    rotateRefreshToken: true,
    clientBasedCORS: () => true,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true, ...logoutPages(db) },
      // Apps with a back-channel logout URI hear of every session of theirs that ends (oidc/logout.ts).
      backchannelLogout: { enabled: true },
      // Any client may push its request first (RFC 9126, FAPI 2.0); none has to yet.
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
      introspection: { enabled: true, allowedPolicy: mayIntrospect },
      revocation: { enabled: true, allowedPolicy: mayRevoke },
      clientCredentials: { enabled: true },
      dPoP: { enabled: true },
    },
    // Token lifespans and types come from each client's template (oidc/client-extras.ts).
    extraClientMetadata: { properties: [...extraClientProperties] },
    ttl: {
      AccessToken: (_ctx, _token, client) => lifespan(client, "access", hour),
      AuthorizationCode: minute,
      ClientCredentials: (_ctx, _token, client) => lifespan(client, "access", hour),
      IdToken: (_ctx, _token, client) => lifespan(client, "id", hour),
      // Each refresh gives a new refresh token (rotation) with the whole lifespan again; none outlasts
      // its grant, which each sign-in to the app renews for a year.
      RefreshToken: (_ctx, _token, client) => lifespan(client, "refresh", defaultRefreshTokenLifespanSeconds),
      Interaction: hour,
      Session: 14 * day,
      Grant: year,
    },
    renderError: engineErrorPage(db),
    fetch: appFetch(appAddresses),
    findAccount: findAccountFor(db, secrets.accountSubjects),
    // Each organization knows the person by the identity chosen for its app (oidc/accounts.ts).
    pairwiseIdentifier: subjectFor(db, secrets.accountSubjects),
    loadExistingGrant: grantAgreedBefore(db),
    // A service client's tokens are about its application: that is their subject (reference §5.3).
    extraTokenClaims: (ctx, token) =>
      token.kind === "ClientCredentials" && ctx.oidc.client
        ? { sub: ownerOf(ctx.oidc.client).applicationId }
        : undefined,
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = behindProxy;
  keepEngineClients(provider, db);
  acceptClientScopes(provider);
  enforceClientSecrets(provider);
  answerWithJwtAccessTokens(provider, jwtAccessTokens);
  protectEnginePages(provider);
  return provider;
}
