import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { apiPrefix, paramPatterns, routes } from "../../common/routes.ts";

/**
 * The parameter patterns of each registered URL of the route table. The bare path of a page the web
 * app renders is left to it: it says that the page names nothing, in the person's language.
 */
function patternsByUrl(): Map<string, [string, RegExp][]> {
  const byUrl = new Map<string, [string, RegExp][]>();
  for (const route of Object.values(routes)) {
    const patterns = paramPatterns(route);
    if (patterns.length === 0) continue;
    if (!route.view) byUrl.set(route.path, patterns);
    if (route.api) byUrl.set(apiPrefix + route.path, patterns);
  }
  return byUrl;
}

/**
 * A path whose parameter does not have the format of what it names (an ID with a NUL in it, a flow ID
 * of the wrong length, an empty one) names nothing: it gets the 404 of an unknown path before any
 * handler, so no query ever sees it.
 */
export function registerParamFormats(app: FastifyInstance): void {
  const known = patternsByUrl();
  app.addHook("onRequest", (request, reply, done) => {
    const params = request.params as Record<string, string>;
    const patterns = known.get(request.routeOptions.url ?? "") ?? [];
    // The router lets a parameter be empty (`/a/` matches `/a/:id`); for Vrata that path does not exist.
    const empty = Object.values(params).includes("");
    if (!empty && patterns.every(([name, pattern]) => pattern.test(params[name] ?? ""))) done();
    else reply.callNotFound();
  });
}

/**
 * The router's own refusals of a path: a parameter that is not valid percent-encoding (a lone
 * surrogate, `%zz`) or longer than anything the route table names. Such a path names nothing either.
 */
export function malformedPath(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.status(404).send({ error: "notFound", message: `no route for ${request.method} this path` });
}
