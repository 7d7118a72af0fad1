import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";
import { pinnedCommand, type Pinning } from "./pinning.ts";
import { root } from "./servers.ts";

export interface Argon2Capacity {
  hashesPerSecond: number;
  /** CPU time of one hash, all threads together. */
  cpuMsPerHash: number;
  inFlight: number;
  threads: number;
}

/**
 * How many argon2id hashes per second this machine manages with all cores busy: the ceiling for
 * password sign-ins, each of which costs one hash. Measured in a separate process whose libuv pool
 * has a thread per core (the default pool has four), on every core (the bench itself is pinned to one).
 */
export async function measureArgon2Capacity(seconds: number, pinning: Pinning): Promise<Argon2Capacity> {
  const threads = Math.max(4, os.availableParallelism());
  const [command, args] = pinnedCommand(pinning, pinning.allCpus, process.execPath, [
    "bench/argon2-hashing.ts",
    String(seconds),
  ]);
  const { stdout } = await promisify(execFile)(command, args, {
    cwd: root,
    env: { ...process.env, UV_THREADPOOL_SIZE: String(threads) },
  });
  return { ...(JSON.parse(stdout) as Omit<Argon2Capacity, "threads">), threads };
}
