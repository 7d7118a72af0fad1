import type { FastifyPluginCallback, HTTPMethods } from "fastify";
import { apiPrefix, routes } from "../../common/routes.ts";
import { HttpError } from "./errors.ts";

const methods: HTTPMethods[] = ["GET", "POST"];

/**
 * Every API path of the route table answers JSON for GET and POST: a method the route does not take
 * gets 405, and a route whose capability has not landed yet gets 501, so a client can tell "not yet"
 * from "no such route" and an API path never falls through to a page. Registered last.
 */
export const apiFallbackPlugin: FastifyPluginCallback = (app, _options, done) => {
  for (const route of Object.values(routes)) {
    if (!route.api) continue;
    const urls = route.page ? [apiPrefix + route.path] : [route.path, apiPrefix + route.path];
    for (const url of urls) {
      const missing = methods.filter((method) => !app.hasRoute({ url, method }));
      if (missing.length === 0) continue;
      const implemented = missing.length < methods.length;
      app.route({
        method: missing,
        url,
        handler: () => {
          throw implemented
            ? new HttpError(405, "methodNotAllowed", `${url} does not take this method`)
            : new HttpError(501, "notImplemented", `${url} is not available yet`);
        },
      });
    }
  }
  done();
};
