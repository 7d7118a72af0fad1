import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Argon2Capacity } from "./argon2-capacity.ts";
import type { FlowCost } from "./flow-cost.ts";
import type { FlowMeasurement } from "./flow-load.ts";
import { pageWeightTargetBytes, type PageWeight } from "./page-weight.ts";
import type { ProbeResult } from "./latency-probe.ts";
import { connections } from "./load.ts";
import { root } from "./servers.ts";
import type { Measurement } from "./stats.ts";
import { targets, verdict, type Verdict } from "./targets.ts";

// The figures of one run: printed as tables with each target and whether it was met, and kept as
// JSON under bench/results/.

export interface HttpResult {
  name: string;
  minRatio?: number;
  oneWorkerBefore?: number;
  /** Vrata with a worker per core. */
  vrata: Measurement;
  oneWorker: Measurement;
  engine: Measurement;
}

export interface FlowResult {
  server: string;
  flowsInFlight: number;
  flow: FlowMeasurement;
  argon2: Argon2Capacity;
  probe: ProbeResult & { name: string; perSecond: number };
  /** CPU time per measured flow: Vrata's processes (argon2 threads included) and the bench's client. */
  cpuMsPerFlow: { vrata: number; benchClient: number };
}

/** Resident memory of a server's first process and of each of its workers, if any. */
export interface Rss {
  main: number;
  workers: number[];
}

export interface ServerResult {
  name: string;
  coldStartMs: number;
  rssIdleMb: Rss;
  rssAfterLoadMb: Rss;
  /** Targets apply to Vrata; the bare engine's figures are for comparison. */
  targeted: boolean;
}

export interface RunResult {
  database: "SQLite" | "PostgreSQL";
  durationSeconds: number;
  /** Vrata's workers in the run with a worker per core. */
  workers: number;
  http: HttpResult[];
  /** Absent when the run was limited to other workloads: the first is Vrata with all its workers. */
  flows?: FlowResult[];
  flowCost?: FlowCost;
  /** The JavaScript the flow page loads. */
  pageWeight?: PageWeight;
  servers: ServerResult[];
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

function httpRow({ name, minRatio, oneWorkerBefore, vrata, oneWorker, engine }: HttpResult) {
  const failed = vrata.errors + oneWorker.errors + engine.errors > 0;
  const ratio = vrata.requestsPerSecond / engine.requestsPerSecond;
  const oneRatio = oneWorker.requestsPerSecond / engine.requestsPerSecond;
  return {
    workload: name,
    "Vrata req/s": fixed(vrata.requestsPerSecond),
    "p99 ms": vrata.p99Ms,
    "1 worker req/s": fixed(oneWorker.requestsPerSecond),
    "1w p99": oneWorker.p99Ms,
    "engine req/s": fixed(engine.requestsPerSecond),
    "engine p99": engine.p99Ms,
    errors: `${vrata.errors}/${oneWorker.errors}/${engine.errors}`,
    ratio: failed ? "FAILED" : fixed(ratio, 2),
    target: minRatio === undefined ? "-" : `>= ${minRatio.toFixed(1)}x`,
    verdict: verdict(failed, minRatio === undefined ? undefined : ratio >= minRatio),
    "1w ratio": failed ? "FAILED" : fixed(oneRatio, 2),
    "1w before": oneWorkerBefore === undefined ? "-" : oneWorkerBefore.toFixed(2),
    "1w verdict": verdict(failed, oneWorkerBefore === undefined ? undefined : oneRatio >= oneWorkerBefore),
  };
}

function flowRow({ server, flow, argon2, probe }: FlowResult, targeted: boolean) {
  const share = flow.flowsPerSecond / argon2.hashesPerSecond;
  const met = share >= targets.flowShareOfArgon2 && probe.p99Ms < targets.otherRequestsP99Ms;
  return {
    server,
    "flows/s": fixed(flow.flowsPerSecond, 1),
    "p50 ms": fixed(flow.p50Ms),
    "p99 ms": fixed(flow.p99Ms),
    errors: flow.errors + probe.errors,
    "argon2 hashes/s": fixed(argon2.hashesPerSecond, 1),
    "share of argon2": `${fixed(share * 100)} %`,
    [`${probe.name} p99 ms`]: fixed(probe.p99Ms, 1),
    target: targeted
      ? `>= ${targets.flowShareOfArgon2 * 100} %, p99 < ${targets.otherRequestsP99Ms} ms`
      : "-",
    verdict: verdict(flow.errors + probe.errors > 0, targeted ? met : undefined),
  };
}

function serverRow(server: ServerResult) {
  const check = (met: boolean): Verdict | "-" => (server.targeted ? verdict(false, met) : "-");
  const { main, workers } = server.rssIdleMb;
  const largest = Math.max(main, ...workers);
  const afterLoad = [server.rssAfterLoadMb.main, ...server.rssAfterLoadMb.workers];
  return {
    server: server.name,
    "cold start ms": fixed(server.coldStartMs),
    [`< ${targets.coldStartMs} ms`]: check(server.coldStartMs < targets.coldStartMs),
    "RSS idle MB (primary + workers)":
      workers.length === 0 ? fixed(main) : `${fixed(main)} + ${workers.map((mb) => fixed(mb)).join(" + ")}`,
    [`< ${targets.idleRssMb} MB per worker`]: check(largest < targets.idleRssMb),
    "RSS after load MB": afterLoad.map((mb) => fixed(mb)).join(" + "),
  };
}

/** True when some workload had errors: its figures mean nothing. */
export function printResult(result: RunResult): boolean {
  const http = result.http.map(httpRow);
  console.log(
    `\nVrata on ${result.database} with ${result.workers} workers (one per core) and with 1 worker, ` +
      `vs bare oidc-provider (one process, in-memory), ${result.durationSeconds} s each`,
  );
  console.table(http);
  for (const { name, vrata, oneWorker, engine } of result.http) {
    for (const [who, measured] of [
      ["Vrata", vrata],
      ["Vrata, 1 worker", oneWorker],
      ["the engine", engine],
    ] as const) {
      if (measured.firstError) console.log(`${name}, ${who}: first error: ${measured.firstError}`);
    }
  }
  const flows = result.flows ? printFlows(result.flows) : [];
  if (result.flowCost) printFlowCost(result.flowCost);
  if (result.pageWeight) printPageWeight(result.pageWeight);
  console.table(result.servers.map(serverRow));
  return [...http, ...flows].some((row) => row.verdict === "FAILED (errors)");
}

function printFlows(results: FlowResult[]) {
  const [first] = results;
  if (!first) return [];
  console.log(
    `\nPassword sign-in flows, ${first.flowsInFlight} in flight; argon2 alone: ${first.argon2.inFlight} ` +
      `hashes in flight on ${first.argon2.threads} threads; alongside the flows: ${first.probe.name} ` +
      `${first.probe.perSecond}/s`,
  );
  const rows = results.map((result, index) => flowRow(result, index === 0));
  console.table(rows);
  for (const { server, cpuMsPerFlow, argon2, flow } of results) {
    console.log(
      `${server}: CPU per flow ${fixed(cpuMsPerFlow.vrata, 1)} ms, of which one argon2 hash ` +
        `${fixed(argon2.cpuMsPerHash, 1)} ms; the bench's own client ${fixed(cpuMsPerFlow.benchClient, 1)} ms`,
    );
    if (flow.firstError) console.log(`${server}: first flow error: ${flow.firstError}`);
  }
  return rows;
}

function printPageWeight({ url, scripts, totalGzipBytes, laterGzipBytes }: PageWeight) {
  const kilobytes = (bytes: number) => `${fixed(bytes / 1000, 1)} KB`;
  console.log(`The flow page (${new URL(url).pathname.replace(/[^/]+$/, "{id}")}) loads:`);
  console.table(scripts.map((script) => ({ script: script.path, gzip: kilobytes(script.gzipBytes) })));
  const met = totalGzipBytes < pageWeightTargetBytes;
  console.log(
    `${kilobytes(totalGzipBytes)} of JavaScript (gzip) in all; target < ${kilobytes(pageWeightTargetBytes)}: ` +
      `${verdict(false, met)}; the later steps, loaded once the person starts typing, add ` +
      `${kilobytes(laterGzipBytes)}\n`,
  );
}

function printFlowCost(cost: FlowCost) {
  console.log(
    `One password sign-in (authorize, flow steps, identity, redirect, code exchange), ${cost.flows} in a ` +
      `row: ${fixed(cost.storeQueriesPerFlow, 1)} store queries and ${fixed(cost.httpRequestsPerFlow, 1)} ` +
      `HTTP requests per flow (before the flow was made cheaper: ` +
      `${targets.flowCostBefore.storeQueries} queries, ${targets.flowCostBefore.httpRequests} requests)\n`,
  );
}

/** Keeps a run's figures as JSON under bench/results/, named by the time and `kind`; returns the file. */
export function writeResult(kind: string, result: object): string {
  const date = new Date().toISOString();
  const json = {
    date,
    node: process.version,
    cores: os.availableParallelism(),
    connections,
    targets,
    ...result,
  };
  const dir = path.join(root, "bench/results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${date.replace(/[:.]/g, "-")}-${kind}.json`);
  fs.writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
  return path.relative(root, file);
}
