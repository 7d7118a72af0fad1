import fs from "node:fs";
import path from "node:path";
import type { BenchClients } from "./clients.ts";
import type { Fetch } from "./code-flow.ts";
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

/**
 * The browser of Better Auth's signed-in person, at its authorization endpoint; the app's code
 * exchange goes without the person's cookie, as an app's back end sends it (Better Auth turns away a
 * request with its session cookie but no Origin). The authorization endpoint answers a request that
 * Node's fetch makes (Sec-Fetch-Mode: cors) with JSON that names where to go, as its own client
 * expects, rather than with a redirect: that answer is read here as the redirect it stands for.
 */
function signedInBrowser(sessionCookie: string): Fetch {
  const browser = cookieFetch(sessionCookie);
  return async (url, init) => {
    if (new URL(url).pathname !== betterAuthEndpoints.authorize) {
      return fetch(url, { ...init, redirect: "manual" });
    }
    const response = await browser(url, init);
    if (response.status !== 200) return response;
    const { redirect, url: location } = (await response.json()) as { redirect?: boolean; url?: string };
    if (!redirect || !location) return new Response(null, { status: 500 });
    return new Response(null, { status: 302, headers: { location } });
  };
}

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
    browser: () => signedInBrowser(sessionCookie),
    consentPromptForOffline: false,
  });
  return { server, side };
}
