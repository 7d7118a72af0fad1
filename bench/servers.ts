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

/** CPU time the process has used so far, all its threads together. */
export function cpuMs(child: ChildProcess): number {
  const stat = fs.readFileSync(`/proc/${child.pid ?? 0}/stat`, "utf8");
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them,
  // counted in USER_HZ ticks, which Linux fixes at 100 per second.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function rssMegabytes(child: ChildProcess): number {
  const status = fs.readFileSync(`/proc/${child.pid ?? 0}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
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
