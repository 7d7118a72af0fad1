import { routes } from "../src/common/routes.ts";
import { connections, type Workload } from "./load.ts";
import { basicAuthorization, type Side } from "./sides.ts";

// The HTTP workloads run against every server, and how fast Vrata should be at each compared with
// the bare engine, which is one process with an in-memory store (design.md §9).

export interface WorkloadDefinition {
  name: string;
  /** The least acceptable ratio Vrata with all its workers / bare engine in requests per second. */
  minRatio?: number;
  /**
   * The ratio Vrata in one process had before it could use several (README, 2026-11-23): one worker
   * should do no worse.
   */
  oneWorkerBefore?: number;
  /** Served from memory without the database, so the PostgreSQL run leaves it out. */
  memoryOnly?: boolean;
  /** Builds one run (warm-up or measured) for one server; some runs need fresh tokens each. */
  prepare: (side: Side) => Promise<Workload> | Workload;
}

const formPost = (side: Side, authorized: boolean) => ({
  path: routes.OIDCToken.path,
  method: "POST" as const,
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    ...(authorized ? { authorization: basicAuthorization(side.clients) } : {}),
  },
});

const hasField = (name: string) => (body: string) => body.includes(`"${name}"`);

export const workloads: WorkloadDefinition[] = [
  {
    name: "GET discovery",
    minRatio: 1,
    oneWorkerBefore: 2.65,
    memoryOnly: true,
    prepare: () => ({ path: routes.OIDCDiscovery.path, verify: hasField("issuer") }),
  },
  {
    name: "GET JWKS",
    minRatio: 1,
    oneWorkerBefore: 1.38,
    memoryOnly: true,
    prepare: () => ({ path: routes.OIDCKeys.path, verify: hasField("keys") }),
  },
  {
    name: "client_credentials token",
    minRatio: 1.2,
    oneWorkerBefore: 0.43,
    prepare: (side) => ({
      ...formPost(side, true),
      body: "grant_type=client_credentials",
      verify: hasField("access_token"),
    }),
  },
  {
    name: "introspection",
    minRatio: 1.2,
    oneWorkerBefore: 0.38,
    prepare: async (side) => ({
      ...formPost(side, true),
      path: routes.OIDCIntrospect.path,
      body: `token=${await side.serviceAccessToken()}`,
      verify: (body) => body.includes('"active":true'),
    }),
  },
  {
    name: "refresh token (rotating)",
    minRatio: 1.0,
    oneWorkerBefore: 0.64,
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
    minRatio: 1.2,
    oneWorkerBefore: 0.48,
    prepare: async (side) => ({
      path: routes.OIDCUserinfo.path,
      headers: { authorization: `Bearer ${await side.personAccessToken()}` },
      verify: hasField("sub"),
    }),
  },
];
