import fs from "node:fs";
import https from "node:https";
import { parseArgs } from "node:util";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

// The peer Vrata is measured against: oidc-provider of the same version with its in-memory adapter,
// served over the same TLS certificate, with nothing of Vrata's in front of it.

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    cert: { type: "string" },
    key: { type: "string" },
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
  },
});
const port = Number(values.port);
const issuer = `https://localhost:${port}`;

const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const provider = new Provider(issuer, {
  jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "bench" }] },
  routes: {
    jwks: "/.well-known/jwks.json",
    token: "/auth/oidc/token",
    introspection: "/auth/oidc/introspect",
  },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
  },
  // The same service client Vrata gets, registered the engine's own way.
  clients: [
    {
      client_id: values["client-id"] ?? "",
      client_secret: values["client-secret"] ?? "",
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
});

const handle = provider.callback();
const server = https.createServer(
  { cert: fs.readFileSync(values.cert ?? ""), key: fs.readFileSync(values.key ?? "") },
  (request, response) => void handle(request, response),
);
server.listen(port, "localhost");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
