import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { apiPrefix, routes } from "../../common/routes.ts";
import { providerLinkAnswer } from "../accounts/account-providers.ts";
import type { FlowDeps } from "../flow/deps.ts";
import { flowProviderAnswer, upstreamOf } from "../flow/provider.ts";
import { HttpError } from "../http/errors.ts";
import { takeUpstreamAnswer } from "./requests.ts";

/** A signed SAML response with its certificates and attributes fits well within this, base64 included. */
const samlFormBodyLimitBytes = 512 * 1024;

/**
 * Where third-party providers send the browser back (`/auth/provider/:provider`): OIDC answers with
 * a GET, SAML's HTTP-POST binding with a POST. The answer completes the flow or the account link it
 * was started for, and the browser goes on to that page. Anything wrong is an error page, never a 500.
 * Providers that take private_key_jwt read Vrata's public key at `/providerJwks`.
 */
export const providerPlugin: FastifyPluginAsync<{ deps: FlowDeps }> = (app, { deps }) => {
  // SAML's HTTP-POST binding posts a form; only these routes read one.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: samlFormBodyLimitBytes },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("cache-control", "no-store");
    const upstream = upstreamOf(deps, (request.params as { provider: string }).provider);
    const expected = upstream.type === "saml" ? "POST" : "GET";
    if (request.method !== expected)
      throw new HttpError(405, "methodNotAllowed", `${upstream.key} answers with ${expected}`);
    const answer = upstream.answerOf(request);
    const pending = await takeUpstreamAnswer(deps, request, reply, upstream, answer.state);
    const location =
      pending.flowId !== null
        ? await flowProviderAnswer(deps, request, reply, upstream, pending, answer)
        : await providerLinkAnswer(deps, request, upstream, pending, answer);
    return reply.redirect(location, 303);
  };
  // No HEAD: a link preview must not use up the answer.
  app.get(routes.AuthThirdPartyProvider.path, { exposeHeadRoute: false }, answer);
  app.post(routes.AuthThirdPartyProvider.path, answer);
  // The operator registers this address as the client's JWKS URL at each provider that takes private_key_jwt.
  for (const url of [routes.ProviderJwks.path, apiPrefix + routes.ProviderJwks.path]) {
    app.get(url, (_request, reply) => {
      const jwks = deps.providers.clientJwks();
      if (!jwks) throw new HttpError(404, "notFound", "no provider takes private_key_jwt");
      return reply
        .type("application/jwk-set+json")
        .header("cache-control", "public, max-age=3600")
        .send(jwks);
    });
  }
  return Promise.resolve();
};
