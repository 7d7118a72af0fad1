import type { FastifyPluginAsync } from "fastify";
import { apiPrefix, routes } from "../../../common/routes.ts";
import { HttpError } from "../../http/errors.ts";
import { samlMetadataMediaType, spMetadata } from "./sp-metadata.ts";
import type { SamlUpstream } from "./upstream.ts";

export interface SamlMetadataRouteOptions {
  /** The SAML provider configured under `key`, if there is one. */
  lookup: (key: string) => SamlUpstream | undefined;
}

/** `GET /samlMetadata/{key}` (and under /api): the SP metadata to give the IdP's operator. */
export const samlMetadataPlugin: FastifyPluginAsync<SamlMetadataRouteOptions> = (app, { lookup }) => {
  const path = routes.SAMLMetadata.path;
  for (const url of [path, apiPrefix + path]) {
    app.get(url, (request, reply) => {
      const { provider } = request.params as { provider: string };
      const upstream = lookup(provider);
      if (!upstream) throw new HttpError(404, "notFound", `no SAML provider ${provider}`);
      return reply
        .type(samlMetadataMediaType)
        .header("content-disposition", 'attachment; filename="metadata.xml"')
        .send(spMetadata(upstream));
    });
  }
  return Promise.resolve();
};
