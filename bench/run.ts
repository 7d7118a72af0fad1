import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { routes } from "../src/common/routes.ts";
import { addServiceClient } from "./service-client.ts";
import { freePort } from "../test/support/ports.ts";

// `npm run bench`: Vrata and a bare oidc-provider of the same version, started side by side in one run
// and loaded one after the other with the same workloads. Ratios are Vrata / bare engine.

const root = fileURLToPath(new URL("../", import.meta.url));
const durationSeconds = Number(process.env.VRATA_BENCH_SECONDS ?? 5);
const connections = 10;

interface Server {
  name: string;
  url: string;
  process: ChildProcess;
  coldStartMs: number;
}

interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** Starts a server and measures the time from spawning it to its first discovery answer. */
async function launch(name: string, args: string[], port: number): Promise<Server> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const url = `https://localhost:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url + routes.OIDCDiscovery.path);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { name, url, process: child, coldStartMs: performance.now() - started };
}

function rssMegabytes(child: ChildProcess): number {
  const status = fs.readFileSync(`/proc/${child.pid ?? 0}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Workload {
  name: string;
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

async function load(base: string, workload: Workload, seconds: number): Promise<Measurement> {
  const result = await autocannon({
    url: base + workload.path,
    connections,
    duration: seconds,
    method: workload.method ?? "GET",
    ...(workload.headers ? { headers: workload.headers } : {}),
    ...(workload.body ? { body: workload.body } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    // Every response must be a success: a failing workload is reported as failed, never as fast.
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Starts Vrata once on a fresh data folder so it creates its CA, keys and tables, then stops it. */
async function prepareDataFolder(dataDir: string, port: number): Promise<void> {
  const child = spawn(process.execPath, ["src/server/main.ts", "--port", String(port), "--data", dataDir], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("Vrata is serving") && resolve());
    child.on("exit", (code) => reject(new Error(`Vrata exited with ${code}`)));
  });
  child.kill("SIGTERM");
  await new Promise((resolve) => child.on("exit", resolve));
}

function format(value: number, digits = 0): string {
  return value.toFixed(digits);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-bench-"));
const servers: Server[] = [];
try {
  const [vrataPort, barePort] = [await freePort(), await freePort()];
  await prepareDataFolder(dataDir, vrataPort);
  const service = await addServiceClient(path.join(dataDir, "vrata.sqlite"));
  const tlsDir = path.join(dataDir, "tls");
  tls.setDefaultCACertificates([
    ...tls.getCACertificates("default"),
    fs.readFileSync(path.join(tlsDir, "ca.pem"), "utf8"),
  ]);

  const vrata = await launch(
    "Vrata",
    ["src/server/main.ts", "--port", String(vrataPort), "--data", dataDir, "--log-level", "warn"],
    vrataPort,
  );
  servers.push(vrata);
  const bare = await launch(
    "oidc-provider",
    [
      "bench/bare-provider.ts",
      "--port",
      String(barePort),
      "--cert",
      path.join(tlsDir, "localhost.pem"),
      "--key",
      path.join(tlsDir, "localhost-key.pem"),
      "--client-id",
      service.clientId,
      "--client-secret",
      service.secret,
    ],
    barePort,
  );
  servers.push(bare);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleRss = servers.map((server) => rssMegabytes(server.process));

  const basic = `Basic ${Buffer.from(`${service.clientId}:${service.secret}`).toString("base64")}`;
  const form = { authorization: basic, "content-type": "application/x-www-form-urlencoded" };
  const clientCredentials: Workload = {
    name: "client_credentials token",
    path: routes.OIDCToken.path,
    method: "POST",
    headers: form,
    body: "grant_type=client_credentials",
  };
  /** A token of each server's own, for introspection. */
  const tokenOf = async (server: Server) => {
    const response = await fetch(server.url + routes.OIDCToken.path, {
      method: "POST",
      headers: form,
      body: clientCredentials.body ?? "",
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const tokens = await Promise.all(servers.map(tokenOf));

  const workloads: ((index: number) => Workload)[] = [
    () => ({ name: "GET discovery", path: routes.OIDCDiscovery.path }),
    () => ({ name: "GET JWKS", path: routes.OIDCKeys.path }),
    () => clientCredentials,
    (index) => ({
      name: "introspection",
      path: routes.OIDCIntrospect.path,
      method: "POST",
      headers: form,
      body: `token=${tokens[index] ?? ""}`,
    }),
  ];
  const rows: Record<string, unknown>[] = [];
  for (const workloadFor of workloads) {
    const results: Measurement[] = [];
    for (const [index, server] of servers.entries()) {
      const workload = workloadFor(index);
      await load(server.url, workload, 1); // warm-up
      results.push(await load(server.url, workload, durationSeconds));
    }
    const workload = workloadFor(0);
    const [ours, peer] = results as [Measurement, Measurement];
    const failed = ours.errors > 0 || peer.errors > 0;
    rows.push({
      workload: workload.name,
      "Vrata req/s": format(ours.requestsPerSecond),
      "Vrata p50 ms": ours.p50Ms,
      "Vrata p99 ms": ours.p99Ms,
      "engine req/s": format(peer.requestsPerSecond),
      "engine p99 ms": peer.p99Ms,
      errors: ours.errors + peer.errors,
      ratio: failed ? "FAILED" : format(ours.requestsPerSecond / peer.requestsPerSecond, 2),
    });
  }
  const loadedRss = servers.map((server) => rssMegabytes(server.process));

  console.table(rows);
  console.table(
    servers.map((server, index) => ({
      server: server.name,
      "cold start ms": format(server.coldStartMs),
      "RSS idle MB": format(idleRss[index] ?? 0),
      "RSS after load MB": format(loadedRss[index] ?? 0),
    })),
  );

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    durationSeconds,
    connections,
    workloads: rows,
    servers: servers.map((server, index) => ({
      name: server.name,
      coldStartMs: server.coldStartMs,
      rssIdleMb: idleRss[index],
      rssAfterLoadMb: loadedRss[index],
    })),
  };
  const resultsDir = path.join(root, "bench/results");
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${result.date.replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
  console.log(`results written to ${path.relative(root, file)}`);
  if (rows.some((row) => row.ratio === "FAILED")) process.exitCode = 1;
} finally {
  for (const server of servers) server.process.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
