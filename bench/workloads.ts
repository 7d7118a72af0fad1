import { connections, type Workload } from "./load.ts";
import { basicAuthorization, type Side } from "./sides.ts";

// The HTTP workloads run against every server, and what design.md §9 asks of Vrata (one worker,
// pinned to one core) against the bare engine on the same core at each.

export interface WorkloadDefinition {
  name: string;
  /** The most server CPU time per request Vrata may spend, as a multiple of the bare engine's. */
  maxCpuRatio?: number;
  /** The least requests per second per core Vrata should serve, as a multiple of the engine's. */
  minPerCoreRatio?: number;
  /** Served from memory without the database, so the PostgreSQL run leaves it out. */
  memoryOnly?: boolean;
  /** Builds one run (warm-up or measured) for one server; some runs need fresh tokens each. */
  prepare: (side: Side) => Promise<Workload> | Workload;
}

const formPost = (side: Side, authorized: boolean) => ({
  path: side.server.endpoints.token,
  method: "POST" as const,
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    ...(authorized ? { authorization: basicAuthorization(side.clients) } : {}),
  },
});

const hasField = (name: string) => (body: string) => body.includes(`"${name}"`);

/** design.md §9: the token endpoint, introspection and userinfo. */
const tokenTargets = { maxCpuRatio: 1.5, minPerCoreRatio: 0.7 };

export const workloads: WorkloadDefinition[] = [
  {
    name: "GET discovery",
    memoryOnly: true,
    prepare: (side) => ({ path: side.server.endpoints.discovery, verify: hasField("issuer") }),
  },
  {
    name: "GET JWKS",
    memoryOnly: true,
    prepare: (side) => ({ path: side.server.endpoints.jwks, verify: hasField("keys") }),
  },
  {
    name: "client_credentials token",
    ...tokenTargets,
    prepare: (side) => ({
      ...formPost(side, true),
      body: "grant_type=client_credentials",
      verify: hasField("access_token"),
    }),
  },
  {
    name: "introspection",
    ...tokenTargets,
    prepare: async (side) => ({
      ...formPost(side, true),
      path: side.server.endpoints.introspection,
      body: `token=${await side.serviceAccessToken()}`,
      verify: (body) => body.includes('"active":true'),
    }),
  },
  {
    name: "refresh token (rotating)",
    ...tokenTargets,
    maxCpuRatio: 2,
    prepare: async (side) => {
      const tokens = await side.refreshTokens(connections);
      return {
        ...formPost(side, false),
        verify: hasField("refresh_token"),
        perConnection: () => {
          // Each answer rotates the token: the connection's next request sends the new one.
          let refreshToken = tokens.pop() ?? "";
          return {
            setupRequest: (request) => ({
              ...request,
              body: new URLSearchParams({
                grant_type: "refresh_token",
                refresh_token: refreshToken,
                client_id: side.clients.person.clientId,
              }).toString(),
            }),
            onResponse: (status, body) => {
              if (status !== 200) return;
              refreshToken = (JSON.parse(body) as { refresh_token?: string }).refresh_token ?? "";
            },
          };
        },
      };
    },
  },
  {
    name: "userinfo",
    ...tokenTargets,
    prepare: async (side) => ({
      path: side.server.endpoints.userinfo,
      headers: { authorization: `Bearer ${await side.personAccessToken()}` },
      verify: hasField("sub"),
    }),
  },
];
