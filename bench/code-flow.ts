import { createHash, randomBytes } from "node:crypto";
import type { BenchClients } from "./clients.ts";
import { cookieFetch } from "./cookie-fetch.ts";
import { vrataEndpoints, type Endpoints } from "./servers.ts";

// The authorization code flow of a public client as a browser and the app's code would run it, minus
// the browser: PKCE S256, state and nonce, each redirect checked, then the code exchange.

export type Fetch = ReturnType<typeof cookieFetch>;
export type PersonClient = BenchClients["person"];

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
}

/** Any answer the flow did not expect: the run counts it as an error, never as a finished flow. */
export class UnexpectedResponse extends Error {
  override name = "UnexpectedResponse";
}

export async function expectStatus(response: Response, status: number, step: string): Promise<Response> {
  if (response.status !== status) {
    const body = await response.text();
    throw new UnexpectedResponse(`${step}: ${response.status} instead of ${status}: ${body.slice(0, 200)}`);
  }
  return response;
}

async function redirectTarget(response: Response, from: string, step: string): Promise<URL> {
  // Reading the body to its end frees the connection for the next request at once.
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (![302, 303].includes(response.status) || !location) {
    throw new UnexpectedResponse(`${step}: ${response.status} instead of a redirect (${from})`);
  }
  return new URL(location, from);
}

/**
 * The person's part, from the page oidc-provider sent the browser to until that page may send the
 * browser back: Vrata's sign-in flow, or nothing at all for the bare engine's stand-in.
 */
export type SignIn = (browser: Fetch, interaction: URL) => Promise<void>;

const random = () => randomBytes(32).toString("base64url");

/** How a server's authorization code flow differs from Vrata's. */
export interface FlowOptions {
  endpoints?: Pick<Endpoints, "authorize" | "token">;
  /** The browser, with what it holds already (a session cookie); a fresh one by default. */
  browser?: () => Fetch;
  /**
   * Whether a request for offline_access says prompt=consent, which OpenID Connect asks for and
   * oidc-provider needs; Better Auth shows its consent page for it, even to a client that skips consent.
   */
  consentPromptForOffline?: boolean;
}

/** An authorization request of the client with PKCE, state and nonce, and the secrets it was made with. */
export function authorizationRequest(
  base: string,
  client: PersonClient,
  scope: string,
  { endpoints = vrataEndpoints, consentPromptForOffline = true }: FlowOptions = {},
) {
  const verifier = random();
  const state = random();
  const url = new URL(endpoints.authorize, base);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: "code",
    scope,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state,
    nonce: random(),
    // OpenID Connect grants offline_access only when consent is asked for.
    ...(consentPromptForOffline && scope.split(" ").includes("offline_access") ? { prompt: "consent" } : {}),
  }).toString();
  return { url, verifier, state };
}

export async function codeFlow(
  base: string,
  client: PersonClient,
  scope: string,
  signIn: SignIn,
  options: FlowOptions = {},
): Promise<Tokens> {
  const browser = options.browser?.() ?? cookieFetch();
  const { url: authorize, verifier, state } = authorizationRequest(base, client, scope, options);
  const interaction = await redirectTarget(await browser(authorize.href), authorize.href, "authorize");
  await signIn(browser, interaction);

  let url = interaction;
  for (let hop = 0; url.origin + url.pathname !== client.redirectUri; hop++) {
    if (hop === 5) throw new UnexpectedResponse("too many redirects on the way back to the app");
    url = await redirectTarget(await browser(url.href), url.href, `return to the app (${url.pathname})`);
  }
  const code = url.searchParams.get("code");
  if (!code || url.searchParams.get("state") !== state) {
    throw new UnexpectedResponse(`the app got ${url.search} instead of a code and its state`);
  }

  const response = await browser(new URL((options.endpoints ?? vrataEndpoints).token, base).href, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      client_id: client.clientId,
    }).toString(),
  });
  const tokens = (await (await expectStatus(response, 200, "code exchange")).json()) as Partial<Tokens>;
  if (!tokens.access_token || !tokens.id_token) throw new UnexpectedResponse("code exchange: no tokens");
  return tokens as Tokens;
}
