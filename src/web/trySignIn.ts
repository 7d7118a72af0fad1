import * as oauth from "oauth4webapi";
import { matchPath } from "react-router";
import { z } from "zod/mini";
import { clockToleranceSeconds } from "../common/limits.ts";
import { pathFor, routes } from "../common/routes.ts";
import { ApiError } from "./api.ts";
import { discover, signInErrorCode } from "./auth.ts";
import { readStored, takeStored } from "./storedJson.ts";

// "Try signing in": the console runs an app's sign-in as the app's test client (a public client with
// PKCE whose only redirect URI is the console's page for the app), and shows what the app would get.
// Its answer comes back to that page; its entries are kept apart from the console's own sign-in
// (auth.ts), and its tokens are looked at once and never kept.

const entryKeyPrefix = "vrata.trySignIn.";
const resultKeyPrefix = "vrata.trySignInResult.";

export interface TryApp {
  readonly organizationId: string;
  readonly applicationId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
}

const entrySchema = z.object({
  organizationId: z.string(),
  applicationId: z.string(),
  clientId: z.string(),
  codeVerifier: z.string(),
  nonce: z.string(),
});
type TryEntry = z.infer<typeof entrySchema>;

const claimsSchema = z.record(z.string(), z.unknown());

/** What the app would get, or why the sign-in failed (an `errors.<code>` key). */
const resultSchema = z.union([
  z.object({ claims: claimsSchema, scopes: z.array(z.string()), userinfo: claimsSchema }),
  z.object({ error: z.string() }),
]);
export type TryResult = z.infer<typeof resultSchema>;

export interface TryCallback {
  readonly parameters: URLSearchParams;
  readonly state: string;
  readonly entry: TryEntry;
}

const redirectUriOf = (app: Pick<TryApp, "organizationId" | "applicationId">) =>
  window.location.origin +
  pathFor("OrganizationAppTry", { id: app.organizationId, appId: app.applicationId });

const clientOf = (clientId: string): oauth.Client => ({
  client_id: clientId,
  [oauth.clockTolerance]: clockToleranceSeconds,
});

/**
 * Sends the browser to the app's sign-in as its test client. With `anotherIdentity`, the person is
 * asked which identity to continue with, as an app asks with prompt=select_account.
 */
export async function startTrySignIn(app: TryApp, { anotherIdentity = false } = {}): Promise<void> {
  const as = await discover();
  if (as.authorization_endpoint === undefined) throw new ApiError("invalidResponse", 0);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const { organizationId, applicationId, clientId } = app;
  const entry: TryEntry = { organizationId, applicationId, clientId, codeVerifier, nonce };
  localStorage.setItem(entryKeyPrefix + state, JSON.stringify(entry));
  sessionStorage.removeItem(resultKeyPrefix + applicationId);

  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("redirect_uri", redirectUriOf(app));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", app.scopes.join(" "));
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  if (anotherIdentity) url.searchParams.set("prompt", "select_account");
  window.location.assign(url);
}

/**
 * Start-up, before the console's own sign-in callback is looked for: on the app's "Try signing in"
 * page, takes the stored entry of the answer's `state` and removes the query from the address (the
 * console's callback then finds none). Null anywhere else, or for an answer this tab did not ask for.
 */
export function takeTrySignInCallback(): TryCallback | null {
  const { pathname, search, hash } = window.location;
  const page = matchPath({ path: routes.OrganizationAppTry.path, caseSensitive: true, end: true }, pathname);
  const parameters = new URLSearchParams(search);
  const state = parameters.get("state");
  if (page === null || state === null) return null;
  window.history.replaceState(window.history.state, "", pathname + hash);
  const entry = takeStored(localStorage, entryKeyPrefix + state, entrySchema);
  if (entry === null || entry.applicationId !== page.params["appId"]) return null;
  return { parameters, state, entry };
}

let completing: Promise<void> = Promise.resolve();

/** Exchanges the test client's code, asks userinfo, and keeps what the app would get for the page. */
export function completeTrySignIn(callback: TryCallback): Promise<void> {
  completing = exchange(callback)
    .catch((error: unknown): TryResult => ({ error: signInErrorCode(error) }))
    .then((result) => {
      sessionStorage.setItem(resultKeyPrefix + callback.entry.applicationId, JSON.stringify(result));
    });
  return completing;
}

async function exchange({ parameters, state, entry }: TryCallback): Promise<TryResult> {
  const as = await discover();
  const client = clientOf(entry.clientId);
  const answer = oauth.validateAuthResponse(as, client, parameters, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    answer,
    redirectUriOf(entry),
    entry.codeVerifier,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: entry.nonce,
    requireIdToken: true,
  });
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (claims === undefined) throw new ApiError("invalidResponse", 0);
  const userinfo = await oauth.processUserInfoResponse(
    as,
    client,
    claims.sub,
    await oauth.userInfoRequest(as, client, tokens.access_token),
  );
  const scopes = (tokens.scope ?? "").split(" ").filter(Boolean);
  return { claims: { ...claims }, scopes, userinfo: { ...userinfo } };
}

/** What the last "Try signing in" of the app in this tab showed, once its answer is processed. */
export async function trySignInResult(applicationId: string): Promise<TryResult | null> {
  await completing;
  return readStored(sessionStorage, resultKeyPrefix + applicationId, resultSchema);
}
