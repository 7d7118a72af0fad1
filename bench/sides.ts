import type { BenchClients } from "./clients.ts";
import { codeFlow, expectStatus, UnexpectedResponse, type FlowOptions, type SignIn } from "./code-flow.ts";
import type { Server } from "./servers.ts";

// What each server under test needs before it can be loaded: tokens of its own, obtained the way
// clients obtain them, so both servers answer the same requests about the same kinds of tokens.
// Tokens are fetched right before each run: the bare engine's in-memory adapter is an LRU cache of
// 1000 entries, and the token workloads before would push an older token out of it.

export interface Side {
  server: Server;
  clients: BenchClients;
  /** A new access token of the service client, for introspection. */
  serviceAccessToken: () => Promise<string>;
  /** A new access token of a person, with scope openid, for userinfo. */
  personAccessToken: () => Promise<string>;
  /** Refresh tokens of grants of their own: rotation makes each usable once, by one connection. */
  refreshTokens: (count: number) => Promise<string[]>;
}

export function basicAuthorization({ service }: BenchClients): string {
  return `Basic ${Buffer.from(`${service.clientId}:${service.secret}`).toString("base64")}`;
}

export function sideOf(
  server: Server,
  clients: BenchClients,
  signIn: SignIn,
  flowOptions: Omit<FlowOptions, "endpoints"> = {},
): Side {
  const flow = (scope: string) =>
    codeFlow(server.url, clients.person, scope, signIn, { ...flowOptions, endpoints: server.endpoints });
  const serviceAccessToken = async () => {
    const response = await fetch(server.url + server.endpoints.token, {
      method: "POST",
      headers: {
        authorization: basicAuthorization(clients),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    const tokens = (await (await expectStatus(response, 200, "client_credentials")).json()) as {
      access_token: string;
    };
    return tokens.access_token;
  };
  const refreshToken = async () => {
    const tokens = await flow("openid offline_access");
    if (!tokens.refresh_token) throw new UnexpectedResponse(`${server.name} issued no refresh token`);
    return tokens.refresh_token;
  };
  return {
    server,
    clients,
    serviceAccessToken,
    personAccessToken: async () => (await flow("openid")).access_token,
    refreshTokens: (count) => Promise.all(Array.from({ length: count }, refreshToken)),
  };
}
