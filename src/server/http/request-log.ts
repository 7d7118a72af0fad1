import { LogController, type FastifyReply, type FastifyRequest } from "fastify";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";

// The two lines Fastify logs of each request ("incoming request", "request completed"), as Vrata wants
// them: who asked (the client's address, through a trusted proxy when --behind-proxy), never the query
// string, and the checks a load balancer or a scraper makes every few seconds only at debug, so that
// they do not bury what people do.

const polledRoutes: RouteName[] = ["HealthLive", "HealthReady", "Metrics"];
const polledPaths = new Set(
  polledRoutes.flatMap((name) => [routes[name].path, apiPrefix + routes[name].path]),
);

/** Whether the request is one a load balancer or a metrics scraper makes over and over. */
const isPolled = (request: FastifyRequest) => polledPaths.has(request.routeOptions.url ?? "");

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Paths that carry a link's secret (an e-mailed invitation's token), with the secret as the one group:
 * whoever reads the log must not be able to open the link.
 */
const pathsWithSecrets = Object.values(routes)
  .filter((route) => Object.values(route.params ?? {}).includes("linkToken"))
  .map((route) => {
    const parts = route.path
      .split(/(:\w+)/)
      .map((part) =>
        part.startsWith(":")
          ? route.params?.[part.slice(1)] === "linkToken"
            ? "([^/]+)"
            : "[^/]+"
          : escaped(part),
      );
    return new RegExp(`^(?:${escaped(apiPrefix)})?${parts.join("")}$`, "d");
  });

/** The path as the log names it: a link's secret in it is left out. */
function loggedPath(path: string): string {
  for (const pattern of pathsWithSecrets) {
    const at = pattern.exec(path)?.indices?.[1];
    if (at) return `${path.slice(0, at[0])}…${path.slice(at[1])}`;
  }
  return path;
}

/** How a request is named in the log: its ID, method, path (not the query: it can carry codes) and client. */
export function requestFields(request: { method: string; url: string; id: string; ip?: string }) {
  return {
    id: request.id,
    method: request.method,
    path: loggedPath(request.url.split("?")[0] ?? ""),
    address: request.ip,
  };
}

/** Fastify's request lines, with health checks and metrics scrapes at debug. */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (isPolled(request)) request.log.debug({ req: request }, "incoming request");
    else super.incomingRequest(request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!error && isPolled(request) && reply.statusCode < 500)
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, "request completed");
    else super.requestCompleted(error, request, reply);
  }
}
