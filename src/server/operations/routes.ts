import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyPluginCallback } from "fastify";
import fp from "fastify-plugin";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";
import { HttpError } from "../http/errors.ts";
import type { Drain } from "../http/drain.ts";
import type { Database } from "../store/database.ts";
import { storeVersion, type StoreVersion } from "../store/migrate.ts";
import { instanceMetrics } from "./cluster-metrics.ts";
import { httpRequests, registry } from "./metrics.ts";

export interface OperationsOptions {
  db: Database;
  postgresSchema?: string | undefined;
  /** The token a metrics scraper presents; without one, /metrics does not exist. */
  metricsToken?: string | undefined;
  drain: Drain;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether the request presents the metrics token, compared in constant time. */
function presentsToken(authorization: string | undefined, token: string): boolean {
  const presented = authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : "";
  return timingSafeEqual(digest(presented), digest(token));
}

const both = (name: RouteName) => [routes[name].path, apiPrefix + routes[name].path];

/**
 * Health checks for load balancers and orchestrators, Prometheus metrics, and the timing of every
 * request. Registered without encapsulation so that its hook sees the routes of every plugin.
 */
const operations: FastifyPluginCallback<OperationsOptions> = (app, options, done) => {
  app.addHook("onResponse", (request, reply, next) => {
    httpRequests.observe(
      {
        route: request.routeOptions.url ?? "unmatched",
        method: request.method,
        status: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    );
    next();
  });

  for (const url of both("HealthLive")) {
    app.get(url, (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));
  }

  for (const url of both("HealthReady")) {
    app.get(url, async (request, reply) => {
      reply.header("cache-control", "no-store");
      if (options.drain.draining) return reply.code(503).send({ status: "stopping" });
      let version: StoreVersion;
      try {
        version = await storeVersion(options.db, options.postgresSchema);
      } catch (error) {
        request.log.warn({ err: error }, "the store does not answer the readiness check");
        return reply.code(503).send({ status: "unavailable", database: "unreachable" });
      }
      const { pending, newer } = version;
      // An instance older than the store serves, but a load balancer should send people to the new ones.
      if (newer.length > 0) return reply.code(503).send({ status: "outdated", database: "reachable", newer });
      if (pending.length > 0) {
        return reply.code(503).send({ status: "migrating", database: "reachable", pending });
      }
      return { status: "ok", database: "reachable" };
    });
  }

  for (const url of both("Metrics")) {
    app.get(url, async (request, reply) => {
      const token = options.metricsToken;
      if (token === undefined)
        throw new HttpError(404, "notFound", "metrics are off (see --metrics-token-file)");
      if (!presentsToken(request.headers.authorization, token)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        throw new HttpError(401, "unauthorized", "present the metrics token as a Bearer token");
      }
      return reply
        .header("cache-control", "no-store")
        .type(registry.contentType)
        .send(await instanceMetrics());
    });
  }
  done();
};

export const operationsPlugin = fp(operations, { name: "vrata-operations" });
