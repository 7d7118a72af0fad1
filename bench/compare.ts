import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { Config } from "../src/server/config.ts";
import { vrataCommand } from "../test/support/command.ts";
import { freePort } from "../test/support/ports.ts";
import { measureArgon2Capacity } from "./argon2-capacity.ts";
import { addBenchClients } from "./clients.ts";
import { authorizationRequest, codeFlow } from "./code-flow.ts";
import { measureFlowCost } from "./flow-cost.ts";
import { runFlowWorkload } from "./flow-workload.ts";
import { load } from "./load.ts";
import type { BenchOptions } from "./options.ts";
import { measurePageWeight } from "./page-weight.ts";
import { createFreshDatabase } from "./postgres.ts";
import { printResult, writeResult, type HttpResult, type ServerResult } from "./report.ts";
import { launch, prepareVrata, root, rssMegabytes, stop, type Server } from "./servers.ts";
import { sideOf, type Side } from "./sides.ts";
import { combined, sleep, type Measurement } from "./stats.ts";
import { passwordSignIn } from "./vrata-sign-in.ts";
import { workloads } from "./workloads.ts";

// The comparison `npm run bench` makes: Vrata with a worker per core, Vrata in one worker, and a bare oidc-provider of the
// same version, started side by side in one run and loaded one after the other with the same
// workloads. Ratios are Vrata / bare engine.

const person = { username: "bench-person", password: "a long benchmark passphrase" };
/** How many rounds each workload's measured time is cut into; the servers take turns in each. */
const rounds = 5;
const metricsToken = "a benchmark's metrics token, long enough";
const workers = os.availableParallelism();

/** Runs the comparison; true when some workload had errors (its figures mean nothing). */
export async function runComparison(options: BenchOptions): Promise<boolean> {
  const selected = (name: string) => options.only === undefined || name.includes(options.only);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-bench-"));
  let database: Awaited<ReturnType<typeof createFreshDatabase>> | undefined;
  const servers: Server[] = [];
  try {
    if (options.database) database = await createFreshDatabase(options.database);
    const [allPort, onePort, barePort] = [await freePort(), await freePort(), await freePort()];
    const metricsTokenFile = path.join(dataDir, "metrics-token");
    fs.writeFileSync(metricsTokenFile, metricsToken, { mode: 0o600 });
    // Both Vratas share the data folder and the store, as two instances of one deployment would.
    const vrataArgs = (port: number) => [
      ...["--port", String(port), "--data", dataDir, "--metrics-token-file", metricsTokenFile],
      ...(database ? ["--database", database.url] : []),
    ];
    await prepareVrata(vrataArgs(allPort));
    const storeSetting: Config["database"] = database
      ? { kind: "postgres", url: database.url }
      : { kind: "sqlite", file: path.join(dataDir, "vrata.sqlite") };
    const clients = await addBenchClients(storeSetting);
    const tlsDir = path.join(dataDir, "tls");
    tls.setDefaultCACertificates([
      ...tls.getCACertificates("default"),
      fs.readFileSync(path.join(tlsDir, "ca.pem"), "utf8"),
    ]);

    // Every server is profiled, so that a gap can be read off as what Vrata does beyond the engine.
    const startedAt = new Date().toISOString().replaceAll(":", "-");
    const profiling = (name: string) =>
      options.cpuProfile
        ? [
            "--cpu-prof",
            "--cpu-prof-dir",
            path.join(root, "bench/results"),
            "--cpu-prof-name",
            `${startedAt}-${name}.cpuprofile`,
          ]
        : [];
    const launchVrata = async (name: string, port: number, workerCount: number) => {
      const server = await launch(
        name,
        [
          ...profiling(`vrata-${workerCount}`),
          ...vrataCommand,
          ...vrataArgs(port),
          ...["--workers", String(workerCount), "--log-level", "warn"],
        ],
        port,
      );
      servers.push(server);
      return server;
    };
    const vrata = await launchVrata(`Vrata, ${workers} workers`, allPort, workers);
    const oneWorker = await launchVrata("Vrata, 1 worker", onePort, 1);
    const bare = await launch(
      "oidc-provider",
      [
        ...profiling("oidc-provider"),
        "bench/bare-provider.ts",
        ...["--port", String(barePort)],
        ...["--cert", path.join(tlsDir, "localhost.pem"), "--key", path.join(tlsDir, "localhost-key.pem")],
        ...[
          "--service-client-id",
          clients.service.clientId,
          "--service-client-secret",
          clients.service.secret,
        ],
        ...["--person-client-id", clients.person.clientId, "--redirect-uri", clients.person.redirectUri],
      ],
      barePort,
    );
    servers.push(bare);
    await sleep(1000);
    const idleRss = servers.map((server) => rssMegabytes(server.process));

    // The person signs up once through the flow itself; every later flow signs in to that account.
    const signUp = passwordSignIn(person.username, person.password, "signup");
    await sideOf(vrata, clients, signUp).personAccessToken();
    const signIn = passwordSignIn(person.username, person.password, "signin");
    const vrataSides = [vrata, oneWorker].map((server) => sideOf(server, clients, signIn));
    // The bare engine's interaction route signs its one person in without being asked.
    const sides: Side[] = [...vrataSides, sideOf(bare, clients, () => Promise.resolve())];

    const http: HttpResult[] = [];
    for (const definition of workloads) {
      if (database && definition.memoryOnly) continue;
      if (!selected(definition.name)) continue;
      const run = async (under: Side, seconds: number) =>
        load(under.server.url, await definition.prepare(under), seconds);
      for (const side of sides) await run(side, 1); // warm-up
      // The servers take turns within each round, each round starting with another one, so that a slow
      // moment of a shared machine falls on all of them rather than on one.
      const slices = new Map<Side, Measurement[]>(sides.map((side) => [side, []]));
      const seconds = options.durationSeconds / rounds;
      for (let round = 0; round < rounds; round++) {
        for (let turn = 0; turn < sides.length; turn++) {
          const side = sides[(round + turn) % sides.length] as Side;
          slices.get(side)?.push(await run(side, seconds));
        }
      }
      const [all, one, engine] = sides.map((side) => combined(slices.get(side) ?? []));
      http.push({
        name: definition.name,
        ...(definition.minRatio ? { minRatio: definition.minRatio } : {}),
        ...(definition.oneWorkerBefore ? { oneWorkerBefore: definition.oneWorkerBefore } : {}),
        vrata: all as Measurement,
        oneWorker: one as Measurement,
        engine: engine as Measurement,
      });
    }

    const flows = selected("sign-in flow")
      ? await (async () => {
          // Measured first, while the servers are idle, so nothing else competes for the cores.
          const argon2 = await measureArgon2Capacity(Math.min(options.durationSeconds, 3));
          const measured = [];
          for (const side of vrataSides) {
            measured.push(await runFlowWorkload(side, signIn, argon2, options.durationSeconds));
          }
          const cost = await measureFlowCost(vrata, metricsToken, () =>
            codeFlow(vrata.url, clients.person, "openid profile email", signIn),
          );
          return { measured, cost };
        })()
      : undefined;
    // What a browser loads for the flow page, reached as people reach it: by an app's authorization request.
    const pageWeight = selected("page weight")
      ? await measurePageWeight(vrata.url, authorizationRequest(vrata.url, clients.person, "openid").url.href)
      : undefined;
    const loadedRss = servers.map((server) => rssMegabytes(server.process));

    const serverResults: ServerResult[] = servers.map((server, index) => ({
      name: server.name,
      coldStartMs: server.coldStartMs,
      rssIdleMb: idleRss[index] ?? { main: NaN, workers: [] },
      rssAfterLoadMb: loadedRss[index] ?? { main: NaN, workers: [] },
      targeted: server !== bare,
    }));
    const result = {
      database: database ? ("PostgreSQL" as const) : ("SQLite" as const),
      durationSeconds: options.durationSeconds,
      workers,
      http,
      ...(flows ? { flows: flows.measured, flowCost: flows.cost } : {}),
      ...(pageWeight ? { pageWeight } : {}),
      servers: serverResults,
    };
    const failed = printResult(result);
    console.log(`results written to ${writeResult(result.database.toLowerCase(), result)}`);
    return failed;
  } finally {
    for (const server of servers) await stop(server.process);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
