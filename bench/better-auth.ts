import fs from "node:fs";
import path from "node:path";
import type { BenchClients } from "./clients.ts";
import { cookieFetch } from "./cookie-fetch.ts";
import type { Pinning } from "./pinning.ts";
import { launch, type Endpoints, type Server } from "./servers.ts";
import { sideOf, type Side } from "./sides.ts";

// Better Auth as the bench runs it (better-auth-server.ts): its endpoints, under its default base
// path, and a side whose tokens come from its own authorization code flow, with the session cookie of
// the person it signed up, and from its own client_credentials grant.

export const betterAuthEndpoints: Endpoints = {
  discovery: "/api/auth/.well-known/openid-configuration",
  jwks: "/api/auth/jwks",
  authorize: "/api/auth/oauth2/authorize",
  token: "/api/auth/oauth2/token",
  introspection: "/api/auth/oauth2/introspect",
  userinfo: "/api/auth/oauth2/userinfo",
};

export interface BetterAuthLaunch {
  port: number;
  tlsDir: string;
  /** A folder of its own for its SQLite file and the clients it registered. */
  dataDir: string;
  redirectUri: string;
  pinning: Pinning;
  cpus: string;
  profiling: string[];
}

export async function launchBetterAuth(settings: BetterAuthLaunch): Promise<{ server: Server; side: Side }> {
  fs.mkdirSync(settings.dataDir, { recursive: true });
  const server = await launch(
    "Better Auth",
    [
      ...settings.profiling,
      "bench/better-auth-server.ts",
      ...["--port", String(settings.port), "--data", settings.dataDir],
      ...["--cert", path.join(settings.tlsDir, "localhost.pem")],
      ...["--key", path.join(settings.tlsDir, "localhost-key.pem")],
      ...["--redirect-uri", settings.redirectUri],
    ],
    settings.port,
    { pinning: settings.pinning, cpus: settings.cpus, endpoints: betterAuthEndpoints },
  );
  // Written before it listens.
  const { sessionCookie, ...clients } = JSON.parse(
    fs.readFileSync(path.join(settings.dataDir, "better-auth-clients.json"), "utf8"),
  ) as BenchClients & { sessionCookie: string };
  const side = sideOf(server, clients, () => Promise.resolve(), {
    browser: () => cookieFetch(sessionCookie),
    consentPromptForOffline: false,
  });
  return { server, side };
}
