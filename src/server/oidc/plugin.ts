import cors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { corsMaxAgeSeconds } from "../../common/limits.ts";
import type { RenderIndex } from "../http/web-page.ts";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";
import { precompute, type StaticDocument } from "./documents.ts";
import type { Engine } from "./engine.ts";
import { handedOverRequest, recordHandOver } from "./engine-pages.ts";
import {
  engineRequest,
  formParameters,
  InvalidRequest,
  type FormRewrite,
  type RawRequest,
} from "./engine-request.ts";
import { withOpaqueTokenParameter } from "./token-parameter.ts";
import { connectionFailureReason, isStoreUnavailable } from "../store/errors.ts";

/** What the engine's fault event gives of the request it was answering (a Koa context). */
interface EngineFault {
  req: object;
  type: string;
  body: unknown;
  set: (name: string, value: string) => void;
}

interface EngineRoute {
  methods: HTTPMethods[];
  /** Served from memory: the engine's answer changes only with the engine (its keys). */
  precomputed?: boolean;
  /** Where oidc-provider serves it, when that differs from the route's own path. */
  enginePath?: string;
  /** Cross-origin use per spec §7; `authorization` lets browsers send the Authorization header. */
  cors?: { authorization: boolean };
  /** Takes a `token` parameter that may be one of Vrata's JWT access tokens. */
  tokenParameter?: boolean;
  /**
   * A form POST is answered with a redirect to the same parameters by GET: the single sign-on cookie
   * is SameSite=Lax, which a browser sends with a top-level GET from another site but not with a POST.
   */
  postAsGet?: boolean;
}

const engineRoutes: Partial<Record<RouteName, EngineRoute>> = {
  // The engine takes authorization requests by GET only: by POST they would need SameSite=None cookies.
  OIDCAuthorize: { methods: ["GET"] },
  OIDCToken: { methods: ["POST"], cors: { authorization: true } },
  OIDCPar: { methods: ["POST"] },
  // Apps send people here by GET or by a form's POST (RP-Initiated Logout 1.0 §2).
  OIDCEndSession: { methods: ["GET", "POST"], postAsGet: true },
  OIDCEndSessionConfirm: { methods: ["POST"] },
  OIDCEndSessionSuccess: { methods: ["GET"] },
  OIDCRevoke: { methods: ["POST"], cors: { authorization: true }, tokenParameter: true },
  OIDCIntrospect: { methods: ["POST"], tokenParameter: true },
  OIDCUserinfo: { methods: ["GET", "HEAD", "POST"], cors: { authorization: true } },
  OIDCKeys: { methods: ["GET", "HEAD"], cors: { authorization: false }, precomputed: true },
  OIDCDiscovery: { methods: ["GET", "HEAD"], cors: { authorization: false }, precomputed: true },
  OAuthDiscovery: {
    methods: ["GET", "HEAD"],
    enginePath: routes.OIDCDiscovery.path,
    cors: { authorization: false },
    precomputed: true,
  },
};

const noCors: FastifyCorsOptions = { origin: false };

/** Cross-origin use of an engine route (spec §7). */
const corsOptions = (methods: HTTPMethods[], authorization: boolean): FastifyCorsOptions => ({
  origin: "*",
  methods,
  allowedHeaders: authorization ? ["Authorization", "DPoP"] : [],
  exposedHeaders: authorization ? ["WWW-Authenticate", "DPoP-Nonce"] : [],
  maxAge: corsMaxAgeSeconds,
});

declare module "fastify" {
  interface FastifyContextConfig {
    engineCors?: FastifyCorsOptions;
  }
}

/**
 * Mounts oidc-provider at the spec's OIDC routes (and under /api for the API ones). Fastify only
 * routes and adds CORS and security headers; the engine reads the body and writes the response itself.
 */
export const oidcPlugin: FastifyPluginAsync<{
  engine: Engine;
  /** The web app's HTML, for the engine's error page. */
  renderIndex: RenderIndex;
}> = async (app, { engine, renderIndex }) => {
  // The engine parses its own bodies; Fastify must not consume or reject them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null));

  // An OPTIONS request without the two headers of a preflight is no CORS request: it is refused as
  // the engine refuses any malformed request.
  app.addHook("onRequest", (request, reply, done) => {
    const { origin, "access-control-request-method": method } = request.headers;
    const preflight = request.method === "OPTIONS" && request.routeOptions.config.engineCors;
    if (!preflight || (origin && method)) done();
    else void reply.status(400).send({ error: "invalid_request", error_description: "not a CORS preflight" });
  });
  await app.register(cors, {
    hook: "onRequest",
    // Each route's options are made when it is registered, not on every request.
    delegator: (request, callback) => {
      callback(null, request.routeOptions.config.engineCors ?? noCors);
    },
  });

  const precomputedPaths = new Set(
    Object.entries(engineRoutes)
      .filter(([, rule]) => rule.precomputed)
      .map(([name, rule]) => rule.enginePath ?? routes[name as RouteName].path),
  );
  // Each engine, the first and each one a change of keys makes, is made ready before it serves.
  const current = await engine.prepare(async (provider) => {
    // The engine answers its own faults with a 500 page naming the request's ID; they are Vrata's to
    // log, under that ID.
    provider.on("server_error", (ctx: EngineFault, error: unknown) => {
      const log = handedOverRequest(ctx.req)?.request.log ?? app.log;
      if (!isStoreUnavailable(error)) {
        log.error({ err: error }, "the OIDC engine failed");
        return;
      }
      // The engine has answered 503 (the error's status); a client is told to come back, in its words.
      log.warn({ cause: connectionFailureReason(error) }, "the database does not answer");
      ctx.set("retry-after", "5");
      if (ctx.type.includes("json"))
        ctx.body = { error: "temporarily_unavailable", error_description: "the database does not answer" };
    });
    const documents = new Map<string, StaticDocument>();
    for (const path of precomputedPaths) documents.set(path, await precompute(provider, path));
    return { callback: provider.callback(), documents };
  });
  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof InvalidRequest)) throw error;
    return reply
      .status(error.statusCode)
      .send({ error: "invalid_request", error_description: error.message });
  };
  const redirectAsGet = async (request: FastifyRequest, reply: FastifyReply) => {
    let parameters: URLSearchParams;
    try {
      parameters = await formParameters(request.raw);
    } catch (error) {
      return refuse(reply, error);
    }
    const path = (request.url.split("?")[0] ?? "") + (parameters.size > 0 ? `?${parameters}` : "");
    return reply.redirect(path, 303);
  };
  const handOver =
    (enginePath: string | undefined, rewrite?: FormRewrite) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      let raw: RawRequest;
      try {
        raw = await engineRequest(request.raw, rewrite);
      } catch (error) {
        return refuse(reply, error);
      }
      // Headers set by Fastify hooks (CORS, security headers) would be lost once the engine takes the
      // raw response, so they are moved onto it first. The engine's own pages set their own policy;
      // its error page, being the web app's, takes the policy of the web app's pages.
      const headers = reply.getHeaders();
      recordHandOver(raw, {
        request,
        pagePolicy: String(headers["content-security-policy"]),
        renderIndex,
      });
      for (const name in headers) {
        const value = headers[name];
        if (value !== undefined && name !== "content-security-policy") reply.raw.setHeader(name, value);
      }
      if (enginePath !== undefined) {
        const url = raw.url ?? "";
        const query = url.indexOf("?");
        raw.url = enginePath + (query >= 0 ? url.slice(query) : "");
      }
      reply.hijack();
      void current().callback(raw, reply.raw);
    };
  const tokenParameter = (parameters: URLSearchParams) =>
    withOpaqueTokenParameter(parameters, engine.jwtAccessTokens);

  app.route({
    method: "GET",
    url: routes.OIDCResume.path,
    handler: handOver(undefined),
  });

  const serveFromMemory = (enginePath: string) => (request: FastifyRequest, reply: FastifyReply) => {
    const document = current().documents.get(enginePath);
    if (!document) throw new Error(`${enginePath} is not precomputed`);
    reply.header("etag", document.etag).header("cache-control", "public, max-age=300");
    if (request.headers["if-none-match"] === document.etag) return reply.status(304).send();
    return reply.type(document.contentType).send(document.body);
  };

  for (const [name, rule] of Object.entries(engineRoutes) as [RouteName, EngineRoute][]) {
    const route = routes[name];
    const enginePath = rule.enginePath ?? route.path;
    const fromMemory = rule.precomputed ? serveFromMemory(enginePath) : undefined;
    const methods: HTTPMethods[] = rule.cors ? [...rule.methods, "OPTIONS"] : rule.methods;
    const config = rule.cors ? { engineCors: corsOptions(rule.methods, rule.cors.authorization) } : {};
    const urls = route.api ? [route.path, apiPrefix + route.path] : [route.path];
    for (const url of urls) {
      const toEngine =
        fromMemory ??
        handOver(
          url === enginePath ? undefined : enginePath,
          rule.tokenParameter ? tokenParameter : undefined,
        );
      app.route({
        method: methods,
        url,
        config,
        handler: rule.postAsGet
          ? (request, reply) =>
              request.method === "POST" ? redirectAsGet(request, reply) : toEngine(request, reply)
          : toEngine,
      });
    }
  }
};
