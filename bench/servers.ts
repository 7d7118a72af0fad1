import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { routes } from "../src/common/routes.ts";
import { vrataCommand } from "../test/support/command.ts";

// Starting and watching the two servers under test, each in a process of its own so that cold start
// and memory are theirs alone.

export const root = fileURLToPath(new URL("../", import.meta.url));

export interface Server {
  name: string;
  url: string;
  process: ChildProcess;
  coldStartMs: number;
}

/** Starts a server and measures the time from spawning it to its first discovery answer. */
export async function launch(name: string, args: string[], port: number): Promise<Server> {
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

/** Stops a server and waits for it to exit, so it has closed its database connections (and written a CPU profile). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** The process and its descendants (a clustered Vrata: the primary and its workers). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter((field) => field !== "")
      .map(Number);
  } catch {
    // ended meanwhile
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time one process has used so far, all its threads together (0 once it has ended). */
function processCpuMs(pid: number): number {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return 0;
  }
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them,
  // counted in USER_HZ ticks, which Linux fixes at 100 per second.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time the server has used so far: its process and its workers, all their threads together. */
export function cpuMs(child: ChildProcess): number {
  return processTree(child.pid ?? 0).reduce((sum, pid) => sum + processCpuMs(pid), 0);
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
export async function prepareVrata(vrataArgs: string[]): Promise<void> {
  const child = spawn(process.execPath, [...vrataCommand, ...vrataArgs], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("Vrata is serving") && resolve());
    child.on("exit", (code) => reject(new Error(`Vrata exited with ${code}`)));
  });
  await stop(child);
}
