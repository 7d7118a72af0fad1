import { routes } from "../src/common/routes.ts";
import { connections, type Workload } from "./load.ts";
import { basicAuthorization, type Side } from "./sides.ts";

// The HTTP workloads run against both servers, and how fast Vrata should be at each compared with
// the bare engine (the targets; design.md §9).

export interface WorkloadDefinition {
  name: string;
  /** The least acceptable ratio Vrata / bare engine in requests per second; none when absent. */
  minRatio?: number;
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
    memoryOnly: true,
    prepare: () => ({ path: routes.OIDCDiscovery.path, verify: hasField("issuer") }),
  },
  {
    name: "GET JWKS",
    minRatio: 1,
    memoryOnly: true,
    prepare: () => ({ path: routes.OIDCKeys.path, verify: hasField("keys") }),
  },
  {
    name: "client_credentials token",
    minRatio: 0.9,
    prepare: (side) => ({
      ...formPost(side, true),
      body: "grant_type=client_credentials",
      verify: hasField("access_token"),
    }),
  },
  {
    name: "introspection",
    minRatio: 0.9,
    prepare: async (side) => ({
      ...formPost(side, true),
      path: routes.OIDCIntrospect.path,
      body: `token=${await side.serviceAccessToken()}`,
      verify: (body) => body.includes('"active":true'),
    }),
  },
  {
    name: "refresh token (rotating)",
    minRatio: 0.8,
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
    prepare: async (side) => ({
      path: routes.OIDCUserinfo.path,
      headers: { authorization: `Bearer ${await side.personAccessToken()}` },
      verify: hasField("sub"),
    }),
  },
];
