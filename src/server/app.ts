import Fastify, {
  type FastifyHttp2SecureOptions,
  type FastifyHttpOptions,
  type FastifyInstance,
} from "fastify";
import type { Client } from "oidc-provider";
import { BackchannelLogouts } from "./oidc/backchannel-logout.ts";
import type { Context } from "../common/api/context.ts";
import { bodyLimitBytes } from "../common/limits.ts";
import type { Config } from "./config.ts";
import { refuseUnparsableRequest, registerErrorHandlers } from "./http/errors.ts";
import { malformedPath, registerParamFormats } from "./http/route-params.ts";
import { pagesPlugin } from "./http/pages.ts";
import { RequestLog, requestFields } from "./http/request-log.ts";
import { logDestination, type LogStream } from "./operations/log-output.ts";
import { securityHeadersPlugin } from "./http/security-headers.ts";
import type { TlsMaterial } from "./http/tls.ts";
import { apiFallbackPlugin } from "./http/api-fallback.ts";
import { oidcPlugin } from "./oidc/plugin.ts";
import { reportIssuedTokens } from "./oidc/issued-tokens.ts";
import { noteSessionDevices } from "./accounts/account-sessions.ts";
import type { Engine } from "./oidc/engine.ts";
import cookie from "@fastify/cookie";
import { accountPlugin } from "./accounts/routes.ts";
import { accountDeletionPlugin } from "./accounts/deletion-routes.ts";
import { purgeDueDeletions } from "./accounts/account-deletion.ts";
import { activityPlugin } from "./activity/routes.ts";
import { flowPlugin } from "./flow/routes.ts";
import { providerPlugin } from "./providers/routes.ts";
import { openProviders } from "./providers/registry.ts";
import { assertionUsesIn } from "./providers/saml/assertion-uses.ts";
import type { CallerDeps } from "./access/caller.ts";
import type { FlowDeps } from "./flow/deps.ts";
import { identityPlugin } from "./identities/routes.ts";
import { invitationPlugin } from "./invitations/routes.ts";
import { templatePlugin } from "./templates/routes.ts";
import { organizationPlugin } from "./organizations/routes.ts";
import { blockPlugin } from "./organizations/block-routes.ts";
import { createMailer } from "./mail/mailer.ts";
import { operationsPlugin } from "./operations/routes.ts";
import { Drain, drainPlugin } from "./http/drain.ts";
import type { Database } from "./store/database.ts";
import { newId } from "./ids.ts";
import type { InstanceSecrets } from "./secrets/instance-secrets.ts";
import { samlMetadataPlugin } from "./providers/saml/routes.ts";

export interface AppParts {
  config: Config;
  tls: TlsMaterial | undefined;
  /** The OIDC engine, made anew when the signing keys change. */
  engine: Engine;
  db: Database;
  secrets: InstanceSecrets;
  context: Context;
  /** The PostgreSQL schema of the store when it is not the default (readiness finds its migrations there). */
  postgresSchema?: string | undefined;
  /** The token of /metrics (read from --metrics-token-file); without it, /metrics is off. */
  metricsToken?: string | undefined;
  renderIndex: (url: string) => Promise<string>;
  /** Development: Vite's middleware serves the web app's modules. */
  devMiddleware?: (app: FastifyInstance) => Promise<void>;
  /** Set once the process is stopping: readiness then turns load balancers away. */
  drain: Drain;
  /** Where the log's JSON lines go instead of standard output. */
  logStream?: LogStream | undefined;
}

// HTTP/2 with HTTP/1.1 fallback over TLS, or plain HTTP/1.1 behind a proxy. Plugins use only what the
// two have in common, so they are typed against the plain instance.
const createFastify = Fastify as (
  options: FastifyHttpOptions<never> | FastifyHttp2SecureOptions<never>,
) => FastifyInstance;

function serverOptions(tls: TlsMaterial | undefined) {
  return tls ? { http2: true as const, https: { allowHTTP1: true, key: tls.key, cert: tls.cert } } : {};
}

const noSchemas = () => () => {
  throw new Error("route schemas are not used: request bodies are checked with zod");
};

/**
 * The HTTP application: every capability is a plugin that registers its own routes. Its mailer is
 * handed back too, for the start to check the SMTP server with.
 */
export async function buildApp({
  config,
  tls,
  engine,
  db,
  secrets,
  context,
  postgresSchema,
  metricsToken,
  renderIndex,
  devMiddleware,
  drain,
  logStream,
}: AppParts) {
  const stream = logStream ?? logDestination(config.logFormat);
  const app = createFastify({
    ...serverOptions(tls),
    bodyLimit: bodyLimitBytes,
    // On close, connections with nothing in flight end at once (Fastify's "idle" where Node has it;
    // Node closes HTTP/2 sessions gracefully itself); requests in flight are served to the end, never
    // answered 503 because the server is closing, and their connections close after them.
    forceCloseConnections: tls ? false : "idle",
    return503OnClosing: false,
    // Behind a proxy, the client is the address the proxy appended to X-Forwarded-For (the last one):
    // the addresses before it are whatever the client wrote, and limits count by this address.
    trustProxy: config.tls.kind === "proxy" ? (_address: string, hop: number) => hop < 1 : false,
    routerOptions: { ignoreTrailingSlash: false, caseSensitive: true },
    frameworkErrors: malformedPath,
    // A request's ID names it in the log and on error pages: unique across instances and restarts, so
    // the ID a person reports finds exactly one request.
    genReqId: () => newId(),
    clientErrorHandler: refuseUnparsableRequest,
    // Request bodies are checked with zod (http/body.ts), never with route JSON schemas; saying so
    // keeps Fastify from loading its JSON schema compilers, a quarter of the modules Vrata loads.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
    logger: {
      level: config.logLevel,
      serializers: { req: requestFields },
      ...(stream ? { stream } : {}),
    },
    logController: new RequestLog(),
  });

  registerErrorHandlers(app, renderIndex);
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  // Providers are discovered before Vrata serves anything; one that cannot be is logged and unavailable.
  const providers = await openProviders(config.providers, {
    issuer: config.issuer,
    title: config.title,
    log: app.log,
    // Its certificate library is loaded only when SAML providers are configured.
    samlCredentials: async () => {
      const { loadSamlSpCredentials } = await import("./providers/saml/sp-credentials.ts");
      return loadSamlSpCredentials(db, secrets.sealer, config.title);
    },
    clientKey: async () => {
      const { loadUpstreamClientKey } = await import("./providers/client-key.ts");
      return loadUpstreamClientKey(db, secrets.sealer);
    },
    samlAssertionUses: assertionUsesIn(db, secrets.samlAssertions),
  });
  app.addHook("onClose", () => providers.close());
  await app.register(securityHeadersPlugin, { issuer: config.issuer, dev: config.dev });
  // After the security headers: a path it refuses is answered with a page that needs them.
  registerParamFormats(app);
  if (devMiddleware) await devMiddleware(app);
  await app.register(drainPlugin, { drain });
  await app.register(operationsPlugin, { db, postgresSchema, metricsToken, drain });
  await app.register(cookie);
  // Before the engine's requests are served: its middleware is fixed once it serves.
  await engine.prepare((provider) => noteSessionDevices(provider, { db, secrets }, app.log));
  await app.register(oidcPlugin, { engine, renderIndex });
  const logouts = new BackchannelLogouts({
    engine,
    db,
    log: app.log,
    delaysMs: config.backchannelLogoutRetriesMs,
  });
  // The engine sends the logout tokens of RP-initiated logout itself, once; Vrata tries again.
  await engine.prepare((provider) =>
    provider.on(
      "backchannel.error",
      (_ctx, error: unknown, client: Client, accountId: string, sid: string) => {
        logouts.failedOnce({ clientId: client.clientId, accountId, sid }, error);
      },
    ),
  );
  app.addHook("onClose", () => logouts.close());
  await engine.prepare((provider) => reportIssuedTokens(provider, app.log));
  const mailer = await createMailer(config.mail, app.log);
  const deps: FlowDeps & CallerDeps = {
    db,
    secrets,
    // Read on every use: the engine of the moment.
    get provider() {
      return engine.provider;
    },
    mailer,
    issuer: config.issuer,
    title: config.title,
    consoleClientId: context.clientId,
    providers,
    logouts,
  };
  await app.register(flowPlugin, { deps, renderIndex });
  await app.register(providerPlugin, { deps });
  await app.register(samlMetadataPlugin, { lookup: (key) => providers.saml(key) });
  await app.register(identityPlugin, { deps });
  await app.register(accountPlugin, { deps });
  await app.register(accountDeletionPlugin, { deps, graceDays: config.accountDeletionGraceDays });
  await app.register(activityPlugin, { deps });
  const reachInternal = config.backchannelLogoutPrivate;
  await app.register(templatePlugin, { deps, reachInternal });
  await app.register(organizationPlugin, { deps, reachInternal, localCaFile: tls?.caFile });
  await app.register(blockPlugin, { deps });
  await app.register(invitationPlugin, { deps });
  await app.register(pagesPlugin, {
    context: { ...context, providers: providers.listed() },
    issuer: config.issuer,
    renderIndex,
    serveBuiltAssets: !devMiddleware,
  });
  await app.register(apiFallbackPlugin);
  // What the background cleanup does besides removing expired rows: the deletions that are due.
  const purgeDeletions = (now: number) => purgeDueDeletions(deps, now);
  return { app, mailer, purgeDeletions };
}
