import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { oauthProvider } from "@better-auth/oauth-provider";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";
import { jwt } from "better-auth/plugins";

// The peer people pick instead of an identity server of their own: Better Auth with its OAuth 2.1 /
// OpenID Connect provider plugin, on SQLite through node:sqlite (a file in the given folder, with the
// settings Vrata gives its own SQLite store), served over the same TLS certificate as the others.
// Its rate limiter is off, so that every request is served rather than turned away. Its clients are
// registered the documented server-side way (the plugin's admin endpoint), and their ids and secrets
// written to a JSON file for the bench.

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    cert: { type: "string" },
    key: { type: "string" },
    data: { type: "string" },
    "redirect-uri": { type: "string" },
  },
});
const port = Number(values.port);
const dataDir = values.data ?? "";
const baseURL = `https://localhost:${port}`;

const database = new DatabaseSync(path.join(dataDir, "better-auth.sqlite"));
database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;");

const hour = 3600;
const adminEmail = "bench-person@example.com";
const options = {
  baseURL,
  secret: randomBytes(32).toString("base64url"),
  database,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  // The provider's login and consent pages are the app's own; the bench's client skips consent and
  // its person is signed in before any authorization request, so neither page is ever shown.
  plugins: [
    jwt(),
    oauthProvider({
      loginPage: "/login",
      consentPage: "/consent",
      accessTokenExpiresIn: hour,
      m2mAccessTokenExpiresIn: hour,
      idTokenExpiresIn: hour,
      scopes: ["openid", "profile", "email", "offline_access", "api"],
      // Only the deployment's administrator (here the bench's one person) registers clients.
      clientPrivileges: ({ user }) => user?.email === adminEmail,
    }),
  ],
};
const { runMigrations } = await getMigrations(options);
await runMigrations();
const auth = betterAuth(options);

// The bench's person signs up, and as the deployment's administrator registers the two clients; the
// bench then uses the person's session cookie to authorize the app without a login page.
const signUp = await auth.api.signUpEmail({
  body: { email: adminEmail, password: "a long benchmark passphrase", name: "Bench Person" },
  returnHeaders: true,
});
const sessionCookie = signUp.headers
  .getSetCookie()
  .map((header) => header.split(";")[0] ?? "")
  .join("; ");
const adminHeaders = new Headers({ cookie: sessionCookie });

async function createClient(body: Record<string, unknown>) {
  const client = await auth.api.adminCreateOAuthClient({ headers: adminHeaders, body });
  return { clientId: client.client_id, secret: client.client_secret ?? "" };
}
const service = await createClient({
  client_name: "Benchmark service",
  grant_types: ["client_credentials"],
  response_types: [],
  token_endpoint_auth_method: "client_secret_basic",
  client_credentials_scopes: ["api"],
});
const person = await createClient({
  client_name: "Benchmark",
  redirect_uris: [values["redirect-uri"] ?? ""],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  scope: "openid profile email offline_access",
  skip_consent: true,
});
fs.writeFileSync(
  path.join(dataDir, "better-auth-clients.json"),
  JSON.stringify({
    service,
    person: { clientId: person.clientId, redirectUri: values["redirect-uri"] },
    sessionCookie,
  }),
);

const handle = toNodeHandler(auth);
const server = https.createServer(
  { cert: fs.readFileSync(values.cert ?? ""), key: fs.readFileSync(values.key ?? "") },
  (request, response) => void handle(request, response),
);
server.listen(port, "localhost");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
