import fs from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import type { JWK } from "jose";
import { locales } from "../common/limits.ts";
import { buildApp } from "./app.ts";
import { ConfigError, type Config } from "./config.ts";
import { Drain } from "./http/drain.ts";
import { builtIndex } from "./http/pages.ts";
import type { TlsMaterial } from "./http/tls.ts";
import { Engine } from "./oidc/engine.ts";
import { SigningKeyWatch } from "./oidc/key-watch.ts";
import { systemResolver, type ResolveHost } from "./oidc/app-fetch.ts";
import { createProvider } from "./oidc/provider.ts";
import { JwtAccessTokens } from "./oidc/jwt-access-tokens.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { Database, StoreOptions } from "./store/database.ts";
import { collectStartGarbage, openInstance, openStore } from "./prepare.ts";
import { plainLog } from "./plain-log.ts";
import type { LogStream } from "./operations/log-output.ts";
import { startExpiryCleanup } from "./store/cleanup.ts";
import { deriveInstanceSecrets } from "./secrets/instance-secrets.ts";
import { loadInstanceKey } from "./secrets/instance-key.ts";

export interface RunningVrata {
  app: FastifyInstance;
  db: Database;
  /** Where the server listens (the actual port when 0 was asked for). */
  url: string;
  issuer: string;
  tls: TlsMaterial | undefined;
  /** The private signing keys (all published ones) and cookie secret this instance has opened. */
  opened: { readonly signingKeys: JWK[]; cookieSecret: string };
  /** Follows the signing keys in the store; `refresh` reads them at once. */
  signingKeys: Pick<SigningKeyWatch, "refresh">;
  mailer: Mailer;
  /** Runs the background cleanup once as if it were `now` (it also runs every ten minutes by itself). */
  cleanUp: (now: number) => Promise<number>;
  /** Begun when the process is asked to stop: readiness turns load balancers away before {@link close}. */
  drain: Drain;
  close: () => Promise<void>;
}

/** A scraper's token must not be guessable: at least 32 characters (say, `openssl rand -hex 32`). */
async function readMetricsToken(file: string): Promise<string> {
  let token: string;
  try {
    token = (await fs.readFile(file, "utf8")).trim();
  } catch (error) {
    throw new ConfigError(`--metrics-token-file cannot be read: ${(error as Error).message}`);
  }
  if (token.length < 32) throw new ConfigError("--metrics-token-file must hold at least 32 characters");
  return token;
}

/** What a running Vrata takes from its surroundings besides its configuration. */
export interface Surroundings {
  /** How often the signing keys are read for changes made elsewhere (tests read them more often). */
  keyPollMs?: number;
  /** How host names of apps are resolved: the system's resolver unless another is given. */
  resolveHost?: ResolveHost;
  /** Where the server's log lines go instead of standard output (tests read them). */
  logStream?: LogStream;
}

/**
 * Reads the instance key, opens the store, brings it up to date, opens or creates the instance's
 * secret, keys and built-in console client, and starts serving.
 */
export async function startVrata(
  config: Config,
  storeOptions: Partial<StoreOptions> = {},
  { keyPollMs, resolveHost = systemResolver, logStream }: Surroundings = {},
): Promise<RunningVrata> {
  const secrets = deriveInstanceSecrets(await loadInstanceKey(config.secretKey));
  const startLog = plainLog(config);
  // Until the server's logger exists, what happens to the store's connections is said plainly.
  let connectionLost = (error: Error) => startLog.warn(`a database connection ended: ${error.message}`);
  const db = await openStore(config, startLog, {
    ...storeOptions,
    onConnectionLost: (error) => connectionLost(error),
  });
  let keyWatch: SigningKeyWatch | undefined;
  try {
    const { cookieSecret, watch, consoleClient, tls } = await openInstance(config, db, secrets, {
      postgresSchema: storeOptions.postgresSchema,
      keyPollMs,
      log: startLog,
    });
    keyWatch = watch;
    const jwtAccessTokens = new JwtAccessTokens({
      db,
      issuer: config.issuer,
      keys: watch.keys,
      sealer: secrets.sealer,
    });
    const engine = new Engine(watch.keys, jwtAccessTokens, (signingKeys) =>
      createProvider({
        issuer: config.issuer,
        db,
        signingKeys,
        jwtAccessTokens,
        secrets,
        cookieSecret,
        behindProxy: config.tls.kind === "proxy",
        appAddresses: { reachInternal: config.backchannelLogoutPrivate, resolveHost },
      }),
    );
    const dev = config.dev ? await import("./http/dev.ts") : undefined;
    const vite = dev ? await dev.createViteDevServer() : undefined;
    const drain = new Drain();
    const { app, mailer, purgeDeletions } = await buildApp({
      drain,
      config,
      postgresSchema: storeOptions.postgresSchema,
      metricsToken: config.metricsTokenFile ? await readMetricsToken(config.metricsTokenFile) : undefined,
      tls,
      engine,
      db,
      secrets,
      context: {
        clientId: consoleClient.clientId,
        redirectUri: consoleClient.redirectUri,
        organizationId: consoleClient.organizationId,
        applicationId: consoleClient.applicationId,
        account: consoleClient.account,
        title: config.title,
        providers: [],
        locales: [...locales],
      },
      renderIndex: vite ? vite.renderIndex : await builtIndex(),
      ...(vite ? { devMiddleware: vite.register } : {}),
      logStream,
    });
    connectionLost = (error) =>
      app.log.warn({ err: error }, "a database connection ended; the next query opens another");
    const cleanup = startExpiryCleanup(db, app.log, purgeDeletions);
    watch.follow((keys) => engine.useKeys(keys), app.log);
    // Taken before listening so that no request waits for it.
    collectStartGarbage();
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const scheme = tls ? "https" : "http";
    return {
      app,
      db,
      url: `${scheme}://localhost:${port}`,
      issuer: config.issuer,
      tls,
      opened: {
        get signingKeys() {
          return [...engine.keys.signing, ...engine.keys.verifyOnly];
        },
        cookieSecret,
      },
      signingKeys: watch,
      mailer,
      cleanUp: cleanup.runAt,
      drain,
      close: async () => {
        cleanup.stop();
        await watch.stop();
        await app.close();
        await vite?.close();
        await db.destroy();
      },
    };
  } catch (error) {
    await keyWatch?.stop();
    await db.destroy();
    throw error;
  }
}
