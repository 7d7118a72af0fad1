import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { Config } from "../src/server/config.ts";
import { vrataCommand } from "../test/support/command.ts";
import { freePort } from "../test/support/ports.ts";
import { measureArgon2Capacity } from "./argon2-capacity.ts";
import { checkOutBaseline, type BaselineCheckout } from "./baseline.ts";
import { launchBetterAuth } from "./better-auth.ts";
import { addBenchClients } from "./clients.ts";
import { authorizationRequest, codeFlow } from "./code-flow.ts";
import { measureFlowCost } from "./flow-cost.ts";
import { runFlowWorkload } from "./flow-workload.ts";
import { load } from "./load.ts";
import type { BenchOptions } from "./options.ts";
import { measurePageWeight } from "./page-weight.ts";
import { describePinning, detectPinning, pinThisProcess } from "./pinning.ts";
import { createFreshDatabase } from "./postgres.ts";
import { printResult, writeResult, type HttpResult, type Role, type ServerResult } from "./report.ts";
import { cpuMs, launch, prepareVrata, root, rssMegabytes, stop, type Server } from "./servers.ts";
import { sideOf, type Side } from "./sides.ts";
import { combined, sleep, type Measurement } from "./stats.ts";
import { passwordSignIn } from "./vrata-sign-in.ts";
import { workloads } from "./workloads.ts";

// The comparison `npm run bench` makes. Per core: Vrata in one worker and a bare oidc-provider of the
// same version, each pinned to the same core while the load generator (this process) has another;
// with --baseline, the Vrata of another git ref, pinned alike; with --peers, Better Auth, pinned
// alike. As information: Vrata with a worker per core on the whole machine. All are started side by
// side in one run and take turns with the same workloads; for each, requests per second and the
// server's own CPU time per request.

const person = { username: "bench-person", password: "a long benchmark passphrase" };
/** How many rounds each workload's measured time is cut into; the servers take turns in each. */
const rounds = 5;
const metricsToken = "a benchmark's metrics token, long enough";
const workers = os.availableParallelism();

interface Contender {
  role: Role;
  side: Side;
}

/** Runs the comparison; true when some workload had errors (its figures mean nothing). */
export async function runComparison(options: BenchOptions): Promise<boolean> {
  // --only takes one text, or several separated by commas ("token,introspection,userinfo").
  const wanted = options.only?.split(",").filter((text) => text !== "");
  const selected = (name: string) => wanted === undefined || wanted.some((text) => name.includes(text));
  const pinning = detectPinning();
  pinThisProcess(pinning);
  const perCore = { pinning, cpus: pinning.serverCpu };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-bench-"));
  const databases: { url: string; drop: () => Promise<void> }[] = [];
  // Each deployment has its own CA; the bench trusts all of them.
  const trusted = [...tls.getCACertificates("default")];
  const servers: Server[] = [];
  let baseline: BaselineCheckout | undefined;
  try {
    const freshDatabase = async () => {
      if (!options.database) return undefined;
      const database = await createFreshDatabase(options.database);
      databases.push(database);
      return database.url;
    };
    const metricsTokenFile = path.join(dataDir, "metrics-token");
    fs.writeFileSync(metricsTokenFile, metricsToken, { mode: 0o600 });

    /** A Vrata deployment: its data folder and store, prepared, with the bench's clients in it. */
    const prepareDeployment = async (folder: string, cwd: string) => {
      fs.mkdirSync(folder, { recursive: true });
      const database = await freshDatabase();
      const args = (port: number) => [
        ...["--port", String(port), "--data", folder, "--metrics-token-file", metricsTokenFile],
        ...(database ? ["--database", database] : []),
      ];
      await prepareVrata(args(await freePort()), cwd);
      const storeSetting: Config["database"] = database
        ? { kind: "postgres", url: database }
        : { kind: "sqlite", file: path.join(folder, "vrata.sqlite") };
      const clients = await addBenchClients(storeSetting);
      const ca = fs.readFileSync(path.join(folder, "tls", "ca.pem"), "utf8");
      trusted.push(ca);
      tls.setDefaultCACertificates(trusted);
      return { args, clients, tlsDir: path.join(folder, "tls") };
    };
    // Both current Vratas share the data folder and the store, as two instances of one deployment would.
    const current = await prepareDeployment(dataDir, root);

    // Every server can be profiled, so that a gap can be read off as what Vrata does beyond the engine.
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
    const launchVrata = async (
      name: string,
      deployment: typeof current,
      workerCount: number,
      cpus: string,
      cwd = root,
    ) => {
      const port = await freePort();
      const server = await launch(
        name,
        [
          ...profiling(name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()),
          ...vrataCommand,
          ...deployment.args(port),
          ...["--workers", String(workerCount), "--log-level", "warn"],
        ],
        port,
        { pinning, cpus, cwd },
      );
      servers.push(server);
      return server;
    };
    const oneWorker = await launchVrata("Vrata, 1 worker", current, 1, pinning.serverCpu);
    const allWorkers = await launchVrata(`Vrata, ${workers} workers`, current, workers, pinning.allCpus);
    const barePort = await freePort();
    const bare = await launch(
      "oidc-provider",
      [
        ...profiling("oidc-provider"),
        "bench/bare-provider.ts",
        ...["--port", String(barePort)],
        ...["--cert", path.join(current.tlsDir, "localhost.pem")],
        ...["--key", path.join(current.tlsDir, "localhost-key.pem")],
        ...["--service-client-id", current.clients.service.clientId],
        ...["--service-client-secret", current.clients.service.secret],
        ...["--person-client-id", current.clients.person.clientId],
        ...["--redirect-uri", current.clients.person.redirectUri],
      ],
      barePort,
      perCore,
    );
    servers.push(bare);

    // The person signs up once through the flow itself; every later flow signs in to that account.
    const signUp = passwordSignIn(person.username, person.password, "signup");
    const signIn = passwordSignIn(person.username, person.password, "signin");
    await sideOf(oneWorker, current.clients, signUp).personAccessToken();
    const contenders: Contender[] = [
      { role: "vrata", side: sideOf(oneWorker, current.clients, signIn) },
      // The bare engine's interaction route signs its one person in without being asked.
      { role: "engine", side: sideOf(bare, current.clients, () => Promise.resolve()) },
      { role: "all", side: sideOf(allWorkers, current.clients, signIn) },
    ];

    if (options.baseline) {
      baseline = checkOutBaseline(options.baseline);
      const deployment = await prepareDeployment(path.join(dataDir, "baseline"), baseline.dir);
      const server = await launchVrata(
        `Vrata ${options.baseline}, 1 worker`,
        deployment,
        1,
        pinning.serverCpu,
        baseline.dir,
      );
      await sideOf(server, deployment.clients, signUp).personAccessToken();
      contenders.push({ role: "baseline", side: sideOf(server, deployment.clients, signIn) });
    }
    if (options.peers) {
      const { server, side } = await launchBetterAuth({
        port: await freePort(),
        tlsDir: current.tlsDir,
        dataDir: path.join(dataDir, "better-auth"),
        redirectUri: current.clients.person.redirectUri,
        profiling: profiling("better-auth"),
        ...perCore,
      });
      servers.push(server);
      contenders.push({ role: "peer", side });
    }
    await sleep(1000);
    const idleRss = servers.map((server) => rssMegabytes(server.process));

    const http: HttpResult[] = [];
    for (const definition of workloads) {
      if (options.database && definition.memoryOnly) continue;
      if (!selected(definition.name)) continue;
      // Tokens and the like are fetched before the measured window; only the load is in it.
      const run = async ({ side }: Contender, seconds: number) => {
        const workload = await definition.prepare(side);
        return load(side.server.url, workload, seconds, () => cpuMs(side.server.process));
      };
      for (const contender of contenders) await run(contender, 1); // warm-up
      // The servers take turns within each round, each round starting with another one, so that a slow
      // moment of a shared machine falls on all of them rather than on one.
      const slices = new Map<Contender, Measurement[]>(contenders.map((contender) => [contender, []]));
      const seconds = options.durationSeconds / rounds;
      for (let round = 0; round < rounds; round++) {
        for (let turn = 0; turn < contenders.length; turn++) {
          const contender = contenders[(round + turn) % contenders.length] as Contender;
          slices.get(contender)?.push(await run(contender, seconds));
        }
      }
      http.push({
        name: definition.name,
        ...(definition.maxCpuRatio ? { maxCpuRatio: definition.maxCpuRatio } : {}),
        ...(definition.minPerCoreRatio ? { minPerCoreRatio: definition.minPerCoreRatio } : {}),
        measured: Object.fromEntries(
          contenders.map((contender) => [contender.role, combined(slices.get(contender) ?? [])]),
        ),
      });
    }

    // The baseline's flows right after this checkout's, for an A/B of the same moment's machine.
    const flowOrder: Role[] = ["vrata", "baseline", "all"];
    const vrataSides = flowOrder.flatMap((role) => contenders.filter((contender) => contender.role === role));
    const flows = selected("sign-in flow")
      ? await (async () => {
          // Measured first, while the servers are idle, so nothing else competes for the cores.
          const argon2 = await measureArgon2Capacity(Math.min(options.durationSeconds, 3), pinning);
          const measured = [];
          for (const { side, role } of vrataSides) {
            measured.push({
              role,
              ...(await runFlowWorkload(side, signIn, argon2, options.durationSeconds)),
            });
          }
          const cost = await measureFlowCost(oneWorker, metricsToken, () =>
            codeFlow(oneWorker.url, current.clients.person, "openid profile email", signIn),
          );
          return { measured, cost };
        })()
      : undefined;
    // What a browser loads for the flow page, reached as people reach it: by an app's authorization request.
    const pageWeight = selected("page weight")
      ? await measurePageWeight(
          oneWorker.url,
          authorizationRequest(oneWorker.url, current.clients.person, "openid").url.href,
        )
      : undefined;
    const loadedRss = servers.map((server) => rssMegabytes(server.process));

    const serverResults: ServerResult[] = servers.map((server, index) => ({
      name: server.name,
      ...(server.cpus === undefined ? {} : { cpus: server.cpus }),
      coldStartMs: server.coldStartMs,
      rssIdleMb: idleRss[index] ?? { main: NaN, workers: [] },
      rssAfterLoadMb: loadedRss[index] ?? { main: NaN, workers: [] },
      // Cold start is a target of one worker; memory of every worker of this checkout's Vrata.
      targets: { coldStart: server === oneWorker, rss: server === oneWorker || server === allWorkers },
    }));
    const result = {
      database: options.database ? ("PostgreSQL" as const) : ("SQLite" as const),
      durationSeconds: options.durationSeconds,
      workers,
      pinning: describePinning(pinning),
      ...(baseline ? { baseline: { ref: baseline.ref, commit: baseline.commit } } : {}),
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
    for (const database of databases) await database.drop();
    baseline?.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
