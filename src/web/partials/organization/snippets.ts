import type { ConfiguredClient } from "../../../common/api/organization.ts";
import { routes } from "../../../common/routes.ts";

// Configuration of common libraries for one client, with the client's real values filled in. The
// secret is never in a snippet: it is read from an environment variable, so a snippet can be pasted
// anywhere.

export const snippetLibraries = ["openid-client", "oidc-client-ts", "authlib", "curl"] as const;
export type SnippetLibrary = (typeof snippetLibraries)[number];

/** Where the snippets read a backend or service client's secret from. */
export const secretVariable = "VRATA_CLIENT_SECRET";

/** What the page says beside a snippet: how to use it. */
export type SnippetHint =
  | "openIdClientSignIn"
  | "oidcClientTs"
  | "authlibSignIn"
  | "curl"
  | "openIdClientCredentials"
  | "authlibClientCredentials";

export interface Snippet {
  readonly library: SnippetLibrary;
  readonly hint: SnippetHint;
  /** The language the code is in, for its label and the file a person pastes it into. */
  readonly language: "javascript" | "python" | "shell";
  readonly code: string;
}

export interface SnippetValues {
  readonly issuer: string;
  readonly client: ConfiguredClient;
  /** The local CA's certificate file, when the server's certificate is Vrata's own. */
  readonly caFile?: string | undefined;
}

/** The snippets that fit the client: sign-in for public and backend clients, tokens for a service. */
export function snippetsFor(values: SnippetValues): Snippet[] {
  const { client } = values;
  if (client.kind === "service") {
    return [
      { library: "curl", language: "shell", hint: "curl", code: curlClientCredentials(values) },
      {
        library: "openid-client",
        language: "javascript",
        hint: "openIdClientCredentials",
        code: openIdClientCredentials(values),
      },
      {
        library: "authlib",
        language: "python",
        hint: "authlibClientCredentials",
        code: authlibClientCredentials(values),
      },
    ];
  }
  const redirectUri = client.redirectUris[0];
  // Without a redirect URI (its value is still to be given) the client cannot sign anybody in yet.
  if (redirectUri === undefined) return [];
  const signIn = { ...values, redirectUri };
  return [
    {
      library: "openid-client",
      language: "javascript",
      hint: "openIdClientSignIn",
      code: openIdClientSignIn(signIn),
    },
    // A browser keeps no secret: only a public client signs in from one.
    ...(client.kind === "public"
      ? [
          {
            library: "oidc-client-ts" as const,
            language: "javascript" as const,
            hint: "oidcClientTs" as const,
            code: oidcClientTs(signIn),
          },
        ]
      : []),
    { library: "authlib", language: "python", hint: "authlibSignIn", code: authlibSignIn(signIn) },
  ];
}

const quoted = (value: string) => JSON.stringify(value);
const pythonQuoted = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
const scopeOf = (client: ConfiguredClient) => client.scopes.join(" ");
const authMethodOf = (client: ConfiguredClient) => client.tokenEndpointAuthMethod ?? "none";

/** openid-client's client authentication for the client's method. */
function openIdClientAuth(client: ConfiguredClient): string {
  switch (authMethodOf(client)) {
    case "client_secret_post":
      return `client.ClientSecretPost(process.env.${secretVariable})`;
    case "client_secret_basic":
      return `client.ClientSecretBasic(process.env.${secretVariable})`;
    default:
      return "client.None()";
  }
}

function openIdClientDiscovery({ issuer, client }: SnippetValues): string {
  return `import * as client from "openid-client";

const config = await client.discovery(
  new URL(${quoted(issuer)}),
  ${quoted(client.id)},
  undefined,
  ${openIdClientAuth(client)},
);`;
}

function openIdClientSignIn(values: SnippetValues & { redirectUri: string }): string {
  return `${openIdClientDiscovery(values)}

export async function signInUrl(session) {
  session.codeVerifier = client.randomPKCECodeVerifier();
  session.state = client.randomState();
  return client.buildAuthorizationUrl(config, {
    redirect_uri: ${quoted(values.redirectUri)},
    scope: ${quoted(scopeOf(values.client))},
    code_challenge: await client.calculatePKCECodeChallenge(session.codeVerifier),
    code_challenge_method: "S256",
    state: session.state,
  });
}

export async function completeSignIn(session, callbackUrl) {
  const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: session.codeVerifier,
    expectedState: session.state,
  });
  return { claims: tokens.claims(), accessToken: tokens.access_token };
}
`;
}

function oidcClientTs({ issuer, client, redirectUri }: SnippetValues & { redirectUri: string }): string {
  const postLogout = client.postLogoutRedirectUris[0];
  return `import { UserManager } from "oidc-client-ts";

const userManager = new UserManager({
  authority: ${quoted(issuer)},
  client_id: ${quoted(client.id)},
  redirect_uri: ${quoted(redirectUri)},${postLogout ? `\n  post_logout_redirect_uri: ${quoted(postLogout)},` : ""}
  scope: ${quoted(scopeOf(client))},
});

export const signIn = () => userManager.signinRedirect();

export async function completeSignIn() {
  const user = await userManager.signinRedirectCallback();
  return user.profile;
}

export const signOut = () => userManager.signoutRedirect();
`;
}

/** Authlib's arguments for the client's secret and how it is sent. */
function authlibCredentials(client: ConfiguredClient, indent: string): string {
  const method = authMethodOf(client);
  return method === "none" ? "" : `${indent}client_secret=os.environ[${pythonQuoted(secretVariable)}],\n`;
}

function authlibSignIn({ issuer, client, redirectUri }: SnippetValues & { redirectUri: string }): string {
  const discovery = issuer + routes.OIDCDiscovery.path;
  const callbackPath = new URL(redirectUri).pathname;
  return `import os

from authlib.integrations.flask_client import OAuth
from flask import Flask

app = Flask(__name__)
app.secret_key = os.environ["FLASK_SECRET_KEY"]
oauth = OAuth(app)
oauth.register(
    "vrata",
    server_metadata_url=${pythonQuoted(discovery)},
    client_id=${pythonQuoted(client.id)},
${authlibCredentials(client, "    ")}    client_kwargs={
        "scope": ${pythonQuoted(scopeOf(client))},
        "code_challenge_method": "S256",
        "token_endpoint_auth_method": ${pythonQuoted(authMethodOf(client))},
    },
)


@app.route("/login")
def login():
    return oauth.vrata.authorize_redirect(${pythonQuoted(redirectUri)})


@app.route(${pythonQuoted(callbackPath)})
def callback():
    token = oauth.vrata.authorize_access_token()
    return token["userinfo"]
`;
}

function curlClientCredentials({ issuer, client, caFile }: SnippetValues): string {
  const credentials =
    authMethodOf(client) === "client_secret_post"
      ? [`-d client_id=${client.id}`, `-d client_secret="$${secretVariable}"`]
      : [`-u "${client.id}:$${secretVariable}"`];
  const lines = [
    "curl --fail-with-body",
    ...(caFile ? [`--cacert ${shellQuoted(caFile)}`] : []),
    ...credentials,
    "-d grant_type=client_credentials",
    ...(client.scopes.length > 0 ? [`-d scope=${shellQuoted(scopeOf(client))}`] : []),
    issuer + routes.OIDCToken.path,
  ];
  return `${lines.join(" \\\n  ")}\n`;
}

/** A shell word that stays one word whatever it holds. */
const shellQuoted = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

function openIdClientCredentials(values: SnippetValues): string {
  const scope = values.client.scopes.length > 0 ? `{ scope: ${quoted(scopeOf(values.client))} }` : "";
  return `${openIdClientDiscovery(values)}

export async function accessToken() {
  const tokens = await client.clientCredentialsGrant(config${scope ? `, ${scope}` : ""});
  return tokens.access_token;
}
`;
}

function authlibClientCredentials({ issuer, client }: SnippetValues): string {
  const scope = client.scopes.length > 0 ? `    scope=${pythonQuoted(scopeOf(client))},\n` : "";
  return `import os

from authlib.integrations.requests_client import OAuth2Session

session = OAuth2Session(
    ${pythonQuoted(client.id)},
    os.environ[${pythonQuoted(secretVariable)}],
${scope}    token_endpoint_auth_method=${pythonQuoted(authMethodOf(client))},
)
token = session.fetch_token(
    ${pythonQuoted(issuer + routes.OIDCToken.path)},
    grant_type="client_credentials",
)
print(token["access_token"])
`;
}
