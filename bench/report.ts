import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Argon2Capacity } from "./argon2-capacity.ts";
import type { FlowMeasurement } from "./flow-load.ts";
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
  vrata: Measurement;
  engine: Measurement;
}

export interface FlowResult {
  workers: number;
  flow: FlowMeasurement;
  argon2: Argon2Capacity;
  probe: ProbeResult & { name: string; perSecond: number };
  /** CPU time per measured flow: Vrata's process (its argon2 threads included) and the bench's client. */
  cpuMsPerFlow: { vrata: number; benchClient: number };
}

export interface ServerResult {
  name: string;
  coldStartMs: number;
  rssIdleMb: number;
  rssAfterLoadMb: number;
  /** Targets apply to Vrata; the bare engine's figures are for comparison. */
  targeted: boolean;
}

export interface RunResult {
  database: "SQLite" | "PostgreSQL";
  durationSeconds: number;
  http: HttpResult[];
  /** Absent when the run was limited to other workloads. */
  flow?: FlowResult;
  servers: ServerResult[];
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

function httpRow({ name, minRatio, vrata, engine }: HttpResult) {
  const failed = vrata.errors + engine.errors > 0;
  const ratio = vrata.requestsPerSecond / engine.requestsPerSecond;
  return {
    workload: name,
    "Vrata req/s": fixed(vrata.requestsPerSecond),
    "p50 ms": vrata.p50Ms,
    "p99 ms": vrata.p99Ms,
    "engine req/s": fixed(engine.requestsPerSecond),
    "engine p50": engine.p50Ms,
    "engine p99": engine.p99Ms,
    "errors Vrata/engine": `${vrata.errors}/${engine.errors}`,
    ratio: failed ? "FAILED" : fixed(ratio, 2),
    target: minRatio === undefined ? "-" : `>= ${minRatio.toFixed(1)}x`,
    verdict: verdict(failed, minRatio === undefined ? undefined : ratio >= minRatio),
  };
}

function flowRow({ flow, argon2, probe }: FlowResult) {
  const share = flow.flowsPerSecond / argon2.hashesPerSecond;
  return {
    workload: "sign-in flow (password, Vrata)",
    "flows/s": fixed(flow.flowsPerSecond, 1),
    "p50 ms": fixed(flow.p50Ms),
    "p99 ms": fixed(flow.p99Ms),
    errors: flow.errors + probe.errors,
    "argon2 hashes/s": fixed(argon2.hashesPerSecond, 1),
    "share of argon2": `${fixed(share * 100)} %`,
    [`${probe.name} p99 ms`]: fixed(probe.p99Ms, 1),
    target: `>= ${targets.flowShareOfArgon2 * 100} %, p99 < ${targets.otherRequestsP99Ms} ms`,
    verdict: verdict(
      flow.errors + probe.errors > 0,
      share >= targets.flowShareOfArgon2 && probe.p99Ms < targets.otherRequestsP99Ms,
    ),
  };
}

function serverRow(server: ServerResult) {
  const check = (met: boolean): Verdict | "-" => (server.targeted ? verdict(false, met) : "-");
  return {
    server: server.name,
    "cold start ms": fixed(server.coldStartMs),
    [`< ${targets.coldStartMs} ms`]: check(server.coldStartMs < targets.coldStartMs),
    "RSS idle MB": fixed(server.rssIdleMb),
    [`< ${targets.idleRssMb} MB`]: check(server.rssIdleMb < targets.idleRssMb),
    "RSS after load MB": fixed(server.rssAfterLoadMb),
  };
}

/** True when some workload had errors: its figures mean nothing. */
export function printResult(result: RunResult): boolean {
  const http = result.http.map(httpRow);
  console.log(
    `\nVrata on ${result.database} vs bare oidc-provider (in-memory), ${result.durationSeconds} s each`,
  );
  console.table(http);
  for (const { name, vrata, engine } of result.http) {
    if (vrata.firstError) console.log(`${name}, Vrata's first error: ${vrata.firstError}`);
    if (engine.firstError) console.log(`${name}, the engine's first error: ${engine.firstError}`);
  }
  const flow = result.flow ? [printFlow(result.flow)] : [];
  console.table(result.servers.map(serverRow));
  return [...http, ...flow].some((row) => row.verdict === "FAILED (errors)");
}

function printFlow(result: FlowResult) {
  console.log(
    `${result.workers} flow workers; argon2 alone: ${result.argon2.inFlight} hashes in flight ` +
      `on ${result.argon2.threads} threads; alongside the flows: ${result.probe.name} ` +
      `${result.probe.perSecond}/s (p50 ${fixed(result.probe.p50Ms, 1)} ms)`,
  );
  const row = flowRow(result);
  console.table([row]);
  const { cpuMsPerFlow, argon2 } = result;
  console.log(
    `CPU per flow: Vrata ${fixed(cpuMsPerFlow.vrata, 1)} ms, of which one argon2 hash ` +
      `${fixed(argon2.cpuMsPerHash, 1)} ms; the bench's own client ${fixed(cpuMsPerFlow.benchClient, 1)} ms`,
  );
  if (result.flow.firstError) console.log(`first flow error: ${result.flow.firstError}`);
  return row;
}

export function writeResult(result: RunResult): string {
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
  const file = path.join(dir, `${date.replace(/[:.]/g, "-")}-${result.database.toLowerCase()}.json`);
  fs.writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
  return path.relative(root, file);
}
