import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

// The peer Vrata is measured against: oidc-provider of the same version with its in-memory adapter,
// served over the same TLS certificate, with nothing of Vrata's in front of it. Its settings mirror
// Vrata's (oidc/provider.ts) where they change the work done per request: rotated refresh tokens,
// PKCE, the same scopes, claims and lifespans.

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    cert: { type: "string" },
    key: { type: "string" },
    "service-client-id": { type: "string" },
    "service-client-secret": { type: "string" },
    "person-client-id": { type: "string" },
    "redirect-uri": { type: "string" },
  },
});
const port = Number(values.port);
const issuer = `https://localhost:${port}`;
/** The one person who signs in here. */
const accountId = "bench-person";

const hour = 3600;
const year = 365 * 24 * hour;
const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const provider = new Provider(issuer, {
  jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "bench" }] },
  routes: {
    authorization: "/auth/oidc/authorize",
    jwks: "/.well-known/jwks.json",
    token: "/auth/oidc/token",
    introspection: "/auth/oidc/introspect",
    userinfo: "/auth/oidc/userinfo",
  },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  responseTypes: ["code"],
  pkce: { required: () => true },
  scopes: ["openid", "offline_access", "profile", "email"],
  claims: {
    openid: ["sub"],
    profile: ["name", "given_name", "preferred_username", "picture"],
    email: ["email", "email_verified"],
  },
  conformIdTokenClaims: false,
  rotateRefreshToken: true,
  // What the engine does by default, said explicitly so that it does not warn about it.
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
  },
  ttl: {
    AccessToken: hour,
    AuthorizationCode: 60,
    ClientCredentials: hour,
    IdToken: hour,
    RefreshToken: year,
    Interaction: hour,
    Session: 14 * 24 * hour,
    Grant: year,
  },
  // The same clients Vrata gets, registered the engine's own way.
  clients: [
    {
      client_id: values["service-client-id"] ?? "",
      client_secret: values["service-client-secret"] ?? "",
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
    },
    {
      client_id: values["person-client-id"] ?? "",
      scope: "openid profile email offline_access",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      redirect_uris: [values["redirect-uri"] ?? ""],
      token_endpoint_auth_method: "none",
    },
  ],
});

/**
 * The engine's interaction page, reduced to what Vrata's flow ends with (flow/finish.ts): the person
 * is signed in and has agreed to the requested scopes, without a page or a password.
 */
async function finishInteraction(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const { params } = await provider.interactionDetails(request, response);
    const grant = new provider.Grant({ accountId, clientId: String(params.client_id) });
    grant.addOIDCScope(String(params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    response.statusCode = 500;
    response.end(String(error));
  }
}

const handle = provider.callback();
const server = https.createServer(
  { cert: fs.readFileSync(values.cert ?? ""), key: fs.readFileSync(values.key ?? "") },
  (request, response) =>
    void (request.url?.startsWith("/interaction/")
      ? finishInteraction(request, response)
      : handle(request, response)),
);
server.listen(port, "localhost");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
