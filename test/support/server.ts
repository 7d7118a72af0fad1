import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { loadConfig } from "../../src/server/config.ts";
import type { ResolveHost } from "../../src/server/oidc/app-fetch.ts";
import type { LogStream } from "../../src/server/operations/log-output.ts";
import { startVrata, type RunningVrata } from "../../src/server/start.ts";
import { createPostgresSchema } from "./postgres.ts";
import { freePort } from "./ports.ts";

export interface TestServer extends RunningVrata {
  dataDir: string;
  /** The PostgreSQL schema holding this server's tables, when PostgreSQL is its store. */
  postgresSchema?: string;
  /**
   * Stops this server and starts a new one on the same data folder and database; `whileStopped` runs
   * in between (a restore, say).
   */
  restart: (whileStopped?: () => void) => Promise<TestServer>;
  /** Stops the server and removes its data. */
  dispose: () => Promise<void>;
}

const trusted = new Set<string>();

/** Lets fetch (and the OIDC client libraries built on it) trust the generated local CA. */
export function trustCa(caFile: string): void {
  trustCaPem(fs.readFileSync(caFile, "utf8"));
}

/** The same, for a CA certificate in hand. */
export function trustCaPem(pem: string): void {
  if (trusted.has(pem)) return;
  trusted.add(pem);
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), ...trusted]);
}

export interface TestServerOptions {
  /** PostgreSQL URL; SQLite in the temporary data folder when absent. */
  postgresUrl?: string;
  args?: string[];
  /**
   * Another test server whose data folder and database this one shares, as a second instance of the
   * same deployment would; it leaves them to that server to remove.
   */
  shareStoreOf?: TestServer;
  /** How often the server reads the signing keys for changes made elsewhere. */
  keyPollMs?: number;
  /** How the server resolves the host names of apps, instead of the system's resolver. */
  resolveHost?: ResolveHost;
  /** Where the server's JSON log lines go (give `--log-level` in `args` too: the tests' default is silent). */
  logStream?: LogStream;
}

/** A real Vrata on a free port, with its own temporary data folder and database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const shared = options.shareStoreOf;
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "vrata-test-"));
  const postgres = shared
    ? shared.postgresSchema === undefined
      ? undefined
      : { schema: shared.postgresSchema, drop: () => Promise.resolve() }
    : options.postgresUrl
      ? await createPostgresSchema(options.postgresUrl)
      : undefined;
  const args = [
    "--port",
    String(await freePort()),
    "--data",
    dataDir,
    "--log-level",
    process.env.VRATA_TEST_LOG ?? "silent",
    ...(options.postgresUrl ? ["--database", options.postgresUrl] : []),
    ...(options.args ?? []),
  ];

  const launch = async (): Promise<TestServer> => {
    const running = await startVrata(
      loadConfig(args, {}),
      postgres ? { postgresSchema: postgres.schema } : {},
      {
        ...(options.keyPollMs === undefined ? {} : { keyPollMs: options.keyPollMs }),
        ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
        ...(options.logStream ? { logStream: options.logStream } : {}),
      },
    );
    if (running.tls?.caFile) trustCa(running.tls.caFile);
    return {
      ...running,
      dataDir,
      ...(postgres ? { postgresSchema: postgres.schema } : {}),
      restart: async (whileStopped) => {
        await running.close();
        whileStopped?.();
        return launch();
      },
      dispose: async () => {
        await running.close();
        await postgres?.drop();
        if (!shared) fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
  return launch();
}
