import { spawnSync } from "node:child_process";
import os from "node:os";

// A fair measurement on a small machine: the server under test on one core and the load generator
// (autocannon, in the bench's own process) on another, so that neither takes the other's time.
// `taskset` sets which cores a process may run on; a process started through it keeps that set, and
// so do its threads and the workers it starts.

export interface Pinning {
  /** Whether servers and the bench are pinned; false without taskset or with a single core. */
  pinned: boolean;
  /** Why not, when not. */
  reason?: string;
  /** The core of a server measured per core. */
  serverCpu: string;
  /** The core of the bench's own process, which generates the load. */
  clientCpu: string;
  /** Every core, for what is measured on the whole machine. */
  allCpus: string;
}

function tasksetWorks(): boolean {
  const result = spawnSync("taskset", ["--version"], { stdio: "ignore" });
  return result.error === undefined && result.status === 0;
}

export function detectPinning(cores = os.availableParallelism(), hasTaskset = tasksetWorks()): Pinning {
  const cpus = { serverCpu: "1", clientCpu: "0", allCpus: `0-${Math.max(0, cores - 1)}` };
  if (!hasTaskset) return { pinned: false, reason: "taskset is not installed", ...cpus };
  if (cores < 2) return { pinned: false, reason: "the machine has a single core", ...cpus };
  return { pinned: true, ...cpus };
}

/** The command and arguments that run `command` on the given cores (unchanged when not pinning). */
export function pinnedCommand(
  pinning: Pinning,
  cpus: string | undefined,
  command: string,
  args: readonly string[],
): [string, string[]] {
  if (!pinning.pinned || cpus === undefined) return [command, [...args]];
  return ["taskset", ["--cpu-list", cpus, command, ...args]];
}

/** Pins this process, every thread it has now and every thread it starts later, to the client's core. */
export function pinThisProcess(pinning: Pinning): void {
  if (!pinning.pinned) return;
  const result = spawnSync(
    "taskset",
    ["--all-tasks", "--cpu-list", "--pid", pinning.clientCpu, String(process.pid)],
    { stdio: "ignore" },
  );
  if (result.status !== 0) throw new Error("taskset could not pin the bench to its core");
}

/** One line for the report: where the servers and the load generator ran. */
export function describePinning(pinning: Pinning): string {
  return pinning.pinned
    ? `Per-core servers pinned to CPU ${pinning.serverCpu}, the load generator (this process) to CPU ` +
        `${pinning.clientCpu} (taskset); Vrata with all its workers runs on every core`
    : `NOT pinned (${pinning.reason}): servers and the load generator share the cores, so the per-core ` +
        `figures are not per core`;
}
