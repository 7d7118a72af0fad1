import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { Config } from "../src/server/config.ts";
import { vrataCommand } from "../test/support/command.ts";
import { freePort } from "../test/support/ports.ts";
import { addBenchClients } from "./clients.ts";
import { runFlowWorkload } from "./flow-workload.ts";
import { load } from "./load.ts";
import { benchOptions } from "./options.ts";
import { createFreshDatabase } from "./postgres.ts";
import { printResult, writeResult, type HttpResult, type ServerResult } from "./report.ts";
import { launch, prepareVrata, root, rssMegabytes, stop, type Server } from "./servers.ts";
import { sideOf, type Side } from "./sides.ts";
import { combined, sleep, type Measurement } from "./stats.ts";
import { passwordSignIn } from "./vrata-sign-in.ts";
import { workloads } from "./workloads.ts";

// `npm run bench`: Vrata and a bare oidc-provider of the same version, started side by side in one run
// and loaded one after the other with the same workloads. Ratios are Vrata / bare engine.

const options = benchOptions(process.argv.slice(2));
const person = { username: "bench-person", password: "a long benchmark passphrase" };
/** How many alternating rounds each workload's measured time is cut into. */
const rounds = 5;
const selected = (name: string) => options.only === undefined || name.includes(options.only);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-bench-"));
let database: Awaited<ReturnType<typeof createFreshDatabase>> | undefined;
const servers: Server[] = [];
try {
  if (options.database) database = await createFreshDatabase(options.database);
  const [vrataPort, barePort] = [await freePort(), await freePort()];
  const vrataArgs = [
    ...["--port", String(vrataPort), "--data", dataDir],
    ...(database ? ["--database", database.url] : []),
  ];
  await prepareVrata(vrataArgs);
  const storeSetting: Config["database"] = database
    ? { kind: "postgres", url: database.url }
    : { kind: "sqlite", file: path.join(dataDir, "vrata.sqlite") };
  const clients = await addBenchClients(storeSetting);
  const tlsDir = path.join(dataDir, "tls");
  tls.setDefaultCACertificates([
    ...tls.getCACertificates("default"),
    fs.readFileSync(path.join(tlsDir, "ca.pem"), "utf8"),
  ]);

  // Both servers are profiled, so that a gap can be read off as what Vrata does beyond the engine.
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
  const vrata = await launch(
    "Vrata",
    [...profiling("vrata"), ...vrataCommand, ...vrataArgs, ...["--log-level", "warn"]],
    vrataPort,
  );
  servers.push(vrata);
  const bare = await launch(
    "oidc-provider",
    [
      ...profiling("oidc-provider"),
      "bench/bare-provider.ts",
      ...["--port", String(barePort)],
      ...["--cert", path.join(tlsDir, "localhost.pem"), "--key", path.join(tlsDir, "localhost-key.pem")],
      ...["--service-client-id", clients.service.clientId, "--service-client-secret", clients.service.secret],
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
  const vrataSignIn = passwordSignIn(person.username, person.password, "signin");
  const sides: Side[] = [
    sideOf(vrata, clients, vrataSignIn),
    // The bare engine's interaction route signs its one person in without being asked.
    sideOf(bare, clients, () => Promise.resolve()),
  ];

  const http: HttpResult[] = [];
  for (const definition of workloads) {
    if (database && definition.memoryOnly) continue;
    if (!selected(definition.name)) continue;
    const [vrataSide] = sides as [Side, Side];
    const run = async (under: Side, seconds: number) =>
      load(under.server.url, await definition.prepare(under), seconds);
    for (const side of sides) await run(side, 1); // warm-up
    // The measured time is cut into rounds that alternate between the two servers, so that a slow
    // moment of a shared machine falls on both rather than on one of them.
    const slices: Record<"vrata" | "engine", Measurement[]> = { vrata: [], engine: [] };
    const seconds = options.durationSeconds / rounds;
    for (let round = 0; round < rounds; round++) {
      const vrataFirst = round % 2 === 0;
      for (const under of vrataFirst ? sides : [...sides].reverse()) {
        slices[under === vrataSide ? "vrata" : "engine"].push(await run(under, seconds));
      }
    }
    const measured = { vrata: combined(slices.vrata), engine: combined(slices.engine) };
    http.push({
      name: definition.name,
      ...(definition.minRatio ? { minRatio: definition.minRatio } : {}),
      ...measured,
    });
  }
  const flow = selected("sign-in flow")
    ? await runFlowWorkload(sides[0] as Side, vrataSignIn, options.durationSeconds)
    : undefined;
  const loadedRss = servers.map((server) => rssMegabytes(server.process));

  const serverResults: ServerResult[] = servers.map((server, index) => ({
    name: server.name,
    coldStartMs: server.coldStartMs,
    rssIdleMb: idleRss[index] ?? NaN,
    rssAfterLoadMb: loadedRss[index] ?? NaN,
    targeted: server === vrata,
  }));
  const result = {
    database: database ? ("PostgreSQL" as const) : ("SQLite" as const),
    durationSeconds: options.durationSeconds,
    http,
    ...(flow ? { flow } : {}),
    servers: serverResults,
  };
  const failed = printResult(result);
  console.log(`results written to ${writeResult(result)}`);
  if (failed) process.exitCode = 1;
} finally {
  for (const server of servers) await stop(server.process);
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
