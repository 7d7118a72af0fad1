import * as oauth from "oauth4webapi";
import { z } from "zod/mini";
import type { Context } from "../common/api/context.ts";
import {
  accountPageScope,
  clockToleranceSeconds,
  consoleScope,
  discoveryTimeoutMs,
} from "../common/limits.ts";
import { ApiError } from "./api.ts";
import { isAccountPath, setAccessToken, setAccountToken } from "./session.ts";
import { takeStored } from "./storedJson.ts";

// The console is an OIDC public client of its own server (spec §4): authorization code flow with
// PKCE S256, state and nonce, through oauth4webapi.

const entryKeyPrefix = "vrata.signin.";

const signInEntrySchema = z.object({
  redirectPath: z.string(),
  codeVerifier: z.string(),
  nonce: z.string(),
  /** Asked with prompt=none: a refusal means "not signed in", not a failure to report. */
  silent: z.optional(z.boolean()),
  /** Signed in with the account page's own client (its token opens the account's APIs only). */
  accountPage: z.optional(z.boolean()),
});

type SignInEntry = z.infer<typeof signInEntrySchema>;

/** An authorization response found in the address at start-up, with the entry stored for its state. */
export interface SignInCallback {
  readonly parameters: URLSearchParams;
  readonly state: string;
  readonly entry: SignInEntry;
}

/** The server's own metadata, by OpenID discovery on this origin. */
export async function discover(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(window.location.origin);
  const response = await oauth.discoveryRequest(issuer, { signal: AbortSignal.timeout(discoveryTimeoutMs) });
  return oauth.processDiscoveryResponse(issuer, response);
}

/**
 * The client a sign-in uses: the account page's own (the account, no identity asked for) when the
 * person comes back to the account page, else the console's.
 */
function signInClient(context: Context, accountPage: boolean) {
  return accountPage
    ? {
        clientId: context.account.clientId,
        redirectUri: context.account.redirectUri,
        scope: accountPageScope,
      }
    : { clientId: context.clientId, redirectUri: context.redirectUri, scope: consoleScope };
}

function clientFor(clientId: string): oauth.Client {
  return { client_id: clientId, [oauth.clockTolerance]: clockToleranceSeconds };
}

/** Only a path on this origin: a stored entry must never send the browser elsewhere. */
export function safePath(path: string): string {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}

/**
 * Sends the browser to the authorization endpoint; the person comes back to `redirectPath`, read as the
 * page is left when it is a function. A silent sign-in asks with prompt=none: the single sign-on
 * session answers at once, without any page. A sign-in `again` asks with prompt=login, since the single
 * sign-on session would otherwise answer at once: the person signs in anew, to pick another identity or
 * to prove a fresh sign-in (the server's `freshSignInRequired`).
 */
export async function startSignIn(
  context: Context,
  redirectPath: string | (() => string),
  { silent = false, again = false }: { silent?: boolean; again?: boolean } = {},
): Promise<void> {
  const as = await discover();
  if (as.authorization_endpoint === undefined) throw new ApiError("invalidResponse", 0);

  const codeVerifier = oauth.generateRandomCodeVerifier();
  const codeChallenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  // Read once nothing is awaited any more: a person may have moved on while the attempt got ready.
  const returnTo = typeof redirectPath === "function" ? redirectPath() : redirectPath;
  const accountPage = isAccountPath(new URL(returnTo, window.location.origin).pathname);
  const entry: SignInEntry = {
    redirectPath: returnTo,
    codeVerifier,
    nonce,
    ...(silent ? { silent } : {}),
    ...(accountPage ? { accountPage } : {}),
  };
  localStorage.setItem(entryKeyPrefix + state, JSON.stringify(entry));

  const { clientId, redirectUri, scope } = signInClient(context, accountPage);
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", scope);
  url.searchParams.set("code_challenge", codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  if (silent) {
    url.searchParams.set("prompt", "none");
    markSilentSignInTried();
  } else if (again) {
    url.searchParams.set("prompt", "login");
  }
  window.location.assign(url);
}

// Silent sign-in (the token lives in memory only, so a reload asks the single sign-on session again):
// one attempt per tab until a sign-in or sign-out succeeds, so that a refusal can never loop.

const silentTriedKey = "vrata.silentSignInTried";

function markSilentSignInTried(): void {
  sessionStorage.setItem(silentTriedKey, "1");
}

/** After a sign-in or a sign-out: the next start-up of this tab may try a silent sign-in again. */
export function forgetSilentSignIn(): void {
  try {
    sessionStorage.removeItem(silentTriedKey);
  } catch {
    // Without storage no silent sign-in is tried (see mayTrySilentSignIn).
  }
}

/**
 * Whether start-up should try a silent sign-in: not on the auth flow's own pages (it would sign in to
 * itself), not when the address was an authorization response (whatever its state), and only once per
 * tab. Without session storage there is no loop guard, so it is never tried.
 */
export function mayTrySilentSignIn(pathname: string, hadCallback: boolean): boolean {
  if (hadCallback || pathname === "/auth" || pathname.startsWith("/auth/")) return false;
  try {
    return sessionStorage.getItem(silentTriedKey) === null;
  } catch {
    return false;
  }
}

/** The answers to prompt=none that only mean the person has to sign in themselves (OIDC Core §3.1.2.6). */
const silentRefusals = new Set([
  "login_required",
  "consent_required",
  "interaction_required",
  "account_selection_required",
]);

export function isSilentRefusal(error: unknown): boolean {
  return error instanceof oauth.AuthorizationResponseError && silentRefusals.has(error.error);
}

function popEntry(state: string): SignInEntry | null {
  return takeStored(localStorage, entryKeyPrefix + state, signInEntrySchema);
}

/** Whether the address is an authorization response (it has a `state`), known to this tab or not. */
export function addressHasSignInCallback(): boolean {
  return new URLSearchParams(window.location.search).has("state");
}

/**
 * Start-up part of the callback, run before the router reads the address: clears the `#_=_` hash some
 * providers append, and when the query has a `state`, takes (reads and deletes) its stored entry and
 * removes the query from the address. Returns null when there is nothing to complete.
 */
export function takeSignInCallback(): SignInCallback | null {
  const { pathname, search, hash } = window.location;
  if (hash === "#_=_") window.history.replaceState(window.history.state, "", pathname + search);

  const parameters = new URLSearchParams(search);
  const state = parameters.get("state");
  if (state === null) return null;
  const entry = popEntry(state);
  window.history.replaceState(window.history.state, "", pathname + window.location.hash);
  return entry === null ? null : { parameters, state, entry };
}

/**
 * Exchanges the authorization code (checking state and nonce), keeps the access token in memory and
 * returns the path to continue at.
 */
export async function completeSignIn(context: Context, callback: SignInCallback): Promise<string> {
  const as = await discover();
  const accountPage = callback.entry.accountPage === true;
  const { clientId, redirectUri } = signInClient(context, accountPage);
  const client = clientFor(clientId);
  const parameters = oauth.validateAuthResponse(as, client, callback.parameters, callback.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    parameters,
    redirectUri,
    callback.entry.codeVerifier,
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: callback.entry.nonce,
    requireIdToken: true,
  });
  if (accountPage) setAccountToken(result.access_token);
  else setAccessToken(result.access_token);
  return safePath(callback.entry.redirectPath);
}

const codesOfLibraryErrors: Record<string, string> = {
  [oauth.INVALID_RESPONSE]: "invalidResponse",
  [oauth.INVALID_SERVER_METADATA]: "invalidResponse",
  [oauth.MISSING_SERVER_METADATA]: "invalidResponse",
  [oauth.RESPONSE_IS_NOT_JSON]: "responseIsNotJson",
  [oauth.RESPONSE_IS_NOT_CONFORM]: "unexpectedStatusCode",
  [oauth.JWT_CLAIM_COMPARISON]: "jwtClaimComparisonFailed",
  [oauth.JSON_ATTRIBUTE_COMPARISON]: "invalidResponse",
  [oauth.JWT_TIMESTAMP_CHECK]: "timestampCheckFailed",
};

/** The stable error code (translated as `errors.<code>`) of a failed sign-in start or completion. */
export function signInErrorCode(error: unknown): string {
  if (error instanceof ApiError) return error.code;
  if (error instanceof DOMException && error.name === "TimeoutError") return "timeout";
  // fetch() rejects with a bare TypeError when no HTTP answer came; the library's own have a code.
  if (error instanceof TypeError && !("code" in error)) return "unreachable";
  if (error instanceof oauth.AuthorizationResponseError) {
    return error.error === "access_denied" ? "accessDenied" : "unexpected";
  }
  if (error instanceof oauth.ResponseBodyError && error.error === "use_dpop_nonce") return "useDpopNonce";
  if (error instanceof oauth.OperationProcessingError)
    return codesOfLibraryErrors[error.code ?? ""] ?? "unexpected";
  return "unexpected";
}
