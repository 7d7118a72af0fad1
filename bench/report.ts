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
import { cpuMsPerRequest, ratio } from "./cpu.ts";
import type { Measurement } from "./stats.ts";
import { targets, verdict, type Verdict } from "./targets.ts";

// The figures of one run: printed as tables with each target and whether it was met, and kept as
// JSON under bench/results/.

/**
 * Who is measured: Vrata (this checkout, one worker, pinned), the bare engine (pinned), Vrata with a
 * worker per core (the whole machine, as information), the baseline's Vrata (one worker, pinned) and
 * Better Auth (pinned).
 */
export type Role = "vrata" | "engine" | "all" | "baseline" | "peer";

export interface HttpResult {
  name: string;
  maxCpuRatio?: number;
  minPerCoreRatio?: number;
  measured: Partial<Record<Role, Measurement>>;
}

export interface FlowResult {
  server: string;
  role: Role;
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
  /** The cores it was pinned to, if it was. */
  cpus?: string;
  coldStartMs: number;
  rssIdleMb: Rss;
  rssAfterLoadMb: Rss;
  /** Which targets apply to it: they are this checkout's Vrata's; the others' figures are for comparison. */
  targets: { coldStart: boolean; rss: boolean };
}

export interface RunResult {
  database: "SQLite" | "PostgreSQL";
  durationSeconds: number;
  /** Vrata's workers in the run with a worker per core. */
  workers: number;
  /** Where the servers and the load generator ran. */
  pinning: string;
  /** The git ref of the A/B, and the commit it named. */
  baseline?: { ref: string; commit: string };
  http: HttpResult[];
  /** Absent when the run was limited to other workloads: the first is Vrata with all its workers. */
  flows?: FlowResult[];
  flowCost?: FlowCost;
  /** The JavaScript the flow page loads. */
  pageWeight?: PageWeight;
  servers: ServerResult[];
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

const perRequest = (measured: Measurement | undefined) =>
  cpuMsPerRequest(measured?.serverCpuMs, measured?.requests);

/** The share of its core a server kept busy over its windows. */
function busyShare(measured: Measurement): number {
  const windowMs = ((measured.requests ?? 0) / measured.requestsPerSecond) * 1000;
  return ratio(measured.serverCpuMs, windowMs);
}

/** Below this share of its core, something else (the load generator, a busy machine) held a server back. */
const saturated = 0.9;

function busy(measured: Measurement): string {
  const share = busyShare(measured);
  return Number.isFinite(share) ? `${fixed(share * 100)} %` : "-";
}

const roleNames: Record<Role, string> = {
  vrata: "Vrata",
  engine: "engine",
  all: "Vrata all",
  baseline: "baseline",
  peer: "Better Auth",
};

/** Requests per second, CPU per request and how busy the core was, of each server on one core. */
function perCoreRow({ name, measured }: HttpResult) {
  const row: Record<string, string | number> = { workload: name };
  for (const role of ["vrata", "engine", "peer"] as const) {
    const figures = measured[role];
    if (!figures) continue;
    row[`${roleNames[role]} req/s`] = fixed(figures.requestsPerSecond);
    row[`${roleNames[role]} CPU ms/req`] = fixed(perRequest(figures), 3);
    row[`${roleNames[role]} busy`] = busy(figures);
    row[`${roleNames[role]} p99`] = figures.p99Ms;
  }
  row.errors = (["vrata", "engine", "peer"] as const)
    .flatMap((role) => (measured[role] ? [measured[role].errors] : []))
    .join("/");
  return row;
}

function failedAmong(measured: Partial<Record<Role, Measurement>>, roles: readonly Role[]): boolean {
  return roles.some((role) => (measured[role]?.errors ?? 0) > 0);
}

/** Per-core ratios to the bare engine and to Better Auth, each with its target and verdict. */
function verdictRow({ name, maxCpuRatio, minPerCoreRatio, measured }: HttpResult) {
  const { vrata, engine, peer } = measured;
  const failed = failedAmong(measured, ["vrata", "engine"]);
  const rateRatio = ratio(vrata?.requestsPerSecond, engine?.requestsPerSecond);
  const cpuRatio = ratio(perRequest(vrata), perRequest(engine));
  const row: Record<string, string> = {
    workload: name,
    "req/s vs engine": failed ? "FAILED" : fixed(rateRatio, 2),
    "req/s target": minPerCoreRatio === undefined ? "-" : `>= ${minPerCoreRatio}x`,
    "req/s verdict": verdict(
      failed,
      minPerCoreRatio === undefined ? undefined : rateRatio >= minPerCoreRatio,
    ),
    "CPU/req vs engine": failed ? "FAILED" : fixed(cpuRatio, 2),
    "CPU target": maxCpuRatio === undefined ? "-" : `<= ${maxCpuRatio}x`,
    "CPU verdict": verdict(failed, maxCpuRatio === undefined ? undefined : cpuRatio <= maxCpuRatio),
  };
  if (peer) {
    const peerFailed = failedAmong(measured, ["vrata", "peer"]);
    const peerRatio = ratio(vrata?.requestsPerSecond, peer.requestsPerSecond);
    row["req/s vs Better Auth"] = peerFailed ? "FAILED" : fixed(peerRatio, 2);
    row["CPU/req of Better Auth / Vrata"] = peerFailed
      ? "FAILED"
      : fixed(ratio(perRequest(peer), perRequest(vrata)), 2);
    row["BA target"] = `>= ${targets.peerMinRatio}x`;
    row["BA verdict"] = verdict(peerFailed, peerRatio >= targets.peerMinRatio);
  }
  return row;
}

/** This checkout's Vrata against the baseline's, both in one worker on the same core. */
function baselineRow({ name, measured }: HttpResult) {
  const { vrata, baseline } = measured;
  const failed = failedAmong(measured, ["vrata", "baseline"]);
  return {
    workload: name,
    "current req/s": fixed(vrata?.requestsPerSecond ?? NaN),
    "baseline req/s": fixed(baseline?.requestsPerSecond ?? NaN),
    "req/s current / baseline": failed
      ? "FAILED"
      : fixed(ratio(vrata?.requestsPerSecond, baseline?.requestsPerSecond), 2),
    "current CPU ms/req": fixed(perRequest(vrata), 3),
    "baseline CPU ms/req": fixed(perRequest(baseline), 3),
    "CPU/req current / baseline": failed
      ? "FAILED"
      : fixed(ratio(perRequest(vrata), perRequest(baseline)), 2),
    errors: `${vrata?.errors ?? "-"}/${baseline?.errors ?? "-"}`,
  };
}

/** Vrata with a worker per core, the load generator on one of those cores too: information only. */
function wholeMachineRow({ name, measured }: HttpResult) {
  const { all, engine } = measured;
  return {
    workload: name,
    "Vrata all workers req/s": fixed(all?.requestsPerSecond ?? NaN),
    "p99 ms": all?.p99Ms ?? "-",
    "CPU ms/req (all processes)": fixed(perRequest(all), 3),
    "ratio to the engine on one core": fixed(ratio(all?.requestsPerSecond, engine?.requestsPerSecond), 2),
    errors: all?.errors ?? "-",
  };
}

function flowRow({ server, flow, argon2, probe, cpuMsPerFlow }: FlowResult, targeted: boolean) {
  const share = flow.flowsPerSecond / argon2.hashesPerSecond;
  const nonHashCpuMs = cpuMsPerFlow.vrata - argon2.cpuMsPerHash;
  const maxNonHashMs = targets.flowMaxNonHashCpuOfHash * argon2.cpuMsPerHash;
  const failed = flow.errors + probe.errors > 0;
  const check = (met: boolean) => (targeted ? verdict(failed, met) : "-");
  return {
    server,
    "flows/s": fixed(flow.flowsPerSecond, 1),
    "p50 ms": fixed(flow.p50Ms),
    "p99 ms": fixed(flow.p99Ms),
    errors: flow.errors + probe.errors,
    "share of argon2 capacity": `${fixed(share * 100)} %`,
    "non-hash CPU ms/flow": fixed(nonHashCpuMs, 1),
    "one hash CPU ms": fixed(argon2.cpuMsPerHash, 1),
    [`<= ${targets.flowMaxNonHashCpuOfHash} hash`]: check(nonHashCpuMs <= maxNonHashMs),
    [`${probe.name} p99 ms`]: fixed(probe.p99Ms, 1),
    [`< ${targets.otherRequestsP99Ms} ms`]: check(probe.p99Ms < targets.otherRequestsP99Ms),
  };
}

function serverRow(server: ServerResult) {
  const check = (applies: boolean, met: boolean): Verdict => (applies ? verdict(false, met) : "-");
  const { main, workers } = server.rssIdleMb;
  const largest = Math.max(main, ...workers);
  const afterLoad = [server.rssAfterLoadMb.main, ...server.rssAfterLoadMb.workers];
  return {
    server: server.name,
    cores: server.cpus ?? "any",
    "cold start ms": fixed(server.coldStartMs),
    [`< ${targets.coldStartMs} ms`]: check(
      server.targets.coldStart,
      server.coldStartMs < targets.coldStartMs,
    ),
    "RSS idle MB (primary + workers)":
      workers.length === 0 ? fixed(main) : `${fixed(main)} + ${workers.map((mb) => fixed(mb)).join(" + ")}`,
    [`< ${targets.idleRssMb} MB per worker`]: check(server.targets.rss, largest < targets.idleRssMb),
    "RSS after load MB": afterLoad.map((mb) => fixed(mb)).join(" + "),
  };
}

/** True when some workload had errors: its figures mean nothing. */
export function printResult(result: RunResult): boolean {
  const peers = result.http.some((row) => row.measured.peer !== undefined);
  console.log(
    `\nPer core, on ${result.database}: Vrata in 1 worker vs bare oidc-provider (in-memory)` +
      (peers
        ? " and Better Auth with its OAuth provider plugin (SQLite through node:sqlite, rate limiter off)"
        : "") +
      `, ${result.durationSeconds} s each, in rounds taken in turn; HTTPS, ${connections} connections.\n` +
      `${result.pinning}. CPU ms/req: the server's own CPU time (all its processes and threads) over the ` +
      `measured windows per request answered; busy: the share of its core it used.` +
      (result.database === "PostgreSQL"
        ? " On PostgreSQL, the database server's own CPU time is not counted: it is another process."
        : ""),
  );
  console.table(result.http.map(perCoreRow));
  const held = result.http.some(({ measured }) =>
    (["vrata", "engine", "peer"] as const).some((role) => {
      const figures = measured[role];
      return figures !== undefined && busyShare(figures) < saturated;
    }),
  );
  if (held) {
    console.log(
      `Some server used less than ${saturated * 100} % of its core: the load generator or other work on the ` +
        `machine held it back, so its req/s is less than its core can do; its CPU ms/req still holds.`,
    );
  }
  const verdicts = result.http.map(verdictRow);
  console.table(verdicts);
  if (result.baseline) {
    console.log(
      `\nA/B: this checkout against ${result.baseline.ref} (${result.baseline.commit.slice(0, 12)}), ` +
        `each in 1 worker on the same core, in the same rounds`,
    );
    console.table(result.http.map(baselineRow));
  }
  console.log(`\nThe whole machine, as information: Vrata with ${result.workers} workers (one per core)`);
  console.table(result.http.map(wholeMachineRow));
  for (const { name, measured } of result.http) {
    for (const [role, figures] of Object.entries(measured)) {
      if (figures.firstError)
        console.log(`${name}, ${roleNames[role as Role]}: first error: ${figures.firstError}`);
    }
  }
  const flows = result.flows ? printFlows(result.flows) : [];
  if (result.flowCost) printFlowCost(result.flowCost);
  if (result.pageWeight) printPageWeight(result.pageWeight);
  console.table(result.servers.map(serverRow));
  const rowFailed = (row: Record<string, unknown>) => Object.values(row).includes("FAILED (errors)");
  return [...verdicts, ...flows].some(rowFailed);
}

function printFlows(results: FlowResult[]) {
  const [first] = results;
  if (!first) return [];
  console.log(
    `\nPassword sign-in flows, ${first.flowsInFlight} in flight; argon2 alone: ${first.argon2.inFlight} ` +
      `hashes in flight on ${first.argon2.threads} threads; alongside the flows: ${first.probe.name} ` +
      `${first.probe.perSecond}/s`,
  );
  // The first is Vrata in one worker, on its core: the targets are its.
  const rows = results.map((result, index) => flowRow(result, index === 0));
  console.table(rows);
  for (const { server, cpuMsPerFlow, argon2, flow } of results) {
    console.log(
      `${server}: CPU per flow ${fixed(cpuMsPerFlow.vrata, 1)} ms, of which one argon2 hash ` +
        `${fixed(argon2.cpuMsPerHash, 1)} ms; the bench's own client ${fixed(cpuMsPerFlow.benchClient, 1)} ms`,
    );
    if (flow.firstError) console.log(`${server}: first flow error: ${flow.firstError}`);
  }
  // Failed flows cost CPU but count for nothing: a side with any has no CPU per flow to compare.
  const nonHashCpuMs = (role: Role) => {
    const result = results.find((candidate) => candidate.role === role);
    if (!result || result.flow.errors + result.probe.errors > 0) return undefined;
    return result.cpuMsPerFlow.vrata - result.argon2.cpuMsPerHash;
  };
  const [current, baseline] = [nonHashCpuMs("vrata"), nonHashCpuMs("baseline")];
  if (current !== undefined && baseline !== undefined) {
    console.log(
      `Non-hash CPU per flow, this checkout vs the baseline (1 worker each): ${fixed(current / baseline, 2)}`,
    );
  }
  return rows;
}

function printPageWeight({ url, scripts, totalGzipBytes, totalSentBytes, laterGzipBytes }: PageWeight) {
  const kilobytes = (bytes: number) => `${fixed(bytes / 1000, 1)} KB`;
  console.log(`The flow page (${new URL(url).pathname.replace(/[^/]+$/, "{id}")}) loads:`);
  console.table(
    scripts.map((script) => ({
      script: script.path,
      gzip: kilobytes(script.gzipBytes),
      sent: kilobytes(script.sentBytes),
    })),
  );
  const met = totalGzipBytes < pageWeightTargetBytes;
  console.log(
    `${kilobytes(totalGzipBytes)} of JavaScript (gzip) in all; target < ${kilobytes(pageWeightTargetBytes)}: ` +
      `${verdict(false, met)}; sent to Chromium: ${kilobytes(totalSentBytes)}; the later steps, loaded ` +
      `once the person starts typing, add ${kilobytes(laterGzipBytes)} (gzip)\n`,
  );
}

function printFlowCost(cost: FlowCost) {
  const met = cost.storeQueriesPerFlow <= targets.flowMaxStoreQueries;
  console.log(
    `One password sign-in (authorize, flow steps, identity, redirect, code exchange), ${cost.flows} in a ` +
      `row: ${fixed(cost.storeQueriesPerFlow, 1)} store queries and ${fixed(cost.httpRequestsPerFlow, 1)} ` +
      `HTTP requests per flow; target <= ${targets.flowMaxStoreQueries} queries: ${verdict(false, met)}\n`,
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
