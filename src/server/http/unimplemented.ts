import type { FastifyPluginCallback } from "fastify";
import { apiPrefix, routes } from "../../common/routes.ts";
import { HttpError } from "./errors.ts";

/**
 * API routes of the table whose capability has not landed yet answer 501 with a stable code, so a
 * client can tell "not yet" from "no such route". Registered last: it only fills the gaps.
 */
export const unimplementedApiPlugin: FastifyPluginCallback = (app, _options, done) => {
  for (const route of Object.values(routes)) {
    if (!route.api) continue;
    const urls = route.page ? [apiPrefix + route.path] : [route.path, apiPrefix + route.path];
    for (const url of urls) {
      if (app.hasRoute({ url, method: "GET" }) || app.hasRoute({ url, method: "POST" })) continue;
      app.route({
        method: ["GET", "POST"],
        url,
        handler: () => {
          throw new HttpError(501, "notImplemented", `${url} is not available yet`);
        },
      });
    }
  }
  done();
};
