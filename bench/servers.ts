import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { routes } from "../src/common/routes.ts";
import { vrataCommand } from "../test/support/command.ts";
import { processTree, treeCpuMs } from "./cpu.ts";
import { pinnedCommand, type Pinning } from "./pinning.ts";

// Starting and watching the two servers under test, each in a process of its own so that cold start
// and memory are theirs alone.

export const root = fileURLToPath(new URL("../", import.meta.url));

/** Where a server answers each request the bench makes (Better Auth has paths of its own). */
export interface Endpoints {
  discovery: string;
  jwks: string;
  authorize: string;
  token: string;
  introspection: string;
  userinfo: string;
}

/** Vrata's, which the bare engine is given too. */
export const vrataEndpoints: Endpoints = {
  discovery: routes.OIDCDiscovery.path,
  jwks: routes.OIDCKeys.path,
  authorize: routes.OIDCAuthorize.path,
  token: routes.OIDCToken.path,
  introspection: routes.OIDCIntrospect.path,
  userinfo: routes.OIDCUserinfo.path,
};

export interface Server {
  name: string;
  url: string;
  process: ChildProcess;
  coldStartMs: number;
  endpoints: Endpoints;
  /** The cores it may run on, when pinned. */
  cpus?: string;
}

export interface LaunchOptions {
  /** Runs the server on these cores only (taskset), when the pinning allows. */
  pinning?: Pinning;
  cpus?: string;
  /** The checkout it runs from (another one for the baseline). */
  cwd?: string;
  endpoints?: Endpoints;
}

/** Starts a server and measures the time from spawning it to its first discovery answer. */
export async function launch(
  name: string,
  args: string[],
  port: number,
  { pinning, cpus, cwd = root, endpoints = vrataEndpoints }: LaunchOptions = {},
): Promise<Server> {
  const started = performance.now();
  const [command, commandArgs] = pinning
    ? pinnedCommand(pinning, cpus, process.execPath, args)
    : [process.execPath, args];
  const child = spawn(command, commandArgs, { cwd, stdio: ["ignore", "ignore", "inherit"] });
  const url = `https://localhost:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url + endpoints.discovery);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return {
    name,
    url,
    process: child,
    coldStartMs: performance.now() - started,
    endpoints,
    ...(pinning?.pinned && cpus !== undefined ? { cpus } : {}),
  };
}

/** Stops a server and waits for it to exit, so it has closed its database connections (and written a CPU profile). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** CPU time the server has used so far: its process and its workers, all their threads together. */
export function cpuMs(child: ChildProcess): number {
  return treeCpuMs(child.pid ?? 0);
}

function processRssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Resident memory of the server's first process, and of each of its workers when it has any. */
export function rssMegabytes(child: ChildProcess): { main: number; workers: number[] } {
  const [main = 0, ...workers] = processTree(child.pid ?? 0);
  return { main: processRssMb(main), workers: workers.map(processRssMb) };
}

/**
 * Starts Vrata once so it creates its CA, keys and tables (in the data folder or the given
 * database) and Node caches its compiled modules, then stops it: the measured start is then a
 * restart, as in production.
 */
export async function prepareVrata(vrataArgs: string[], cwd = root): Promise<void> {
  const child = spawn(process.execPath, [...vrataCommand, ...vrataArgs], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("Vrata is serving") && resolve());
    child.on("exit", (code) => reject(new Error(`Vrata exited with ${code}`)));
  });
  await stop(child);
}
