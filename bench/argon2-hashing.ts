import os from "node:os";
import { hashPassword } from "../src/server/accounts/passwords.ts";

// Run by argon2-capacity.ts in a process of its own: hashes passwords the way Vrata's sign-in does
// (the same function, so the same library and parameters) with every core kept busy, and prints
// how many hashes per second that makes and how much CPU time each takes.

const seconds = Number(process.argv[2] ?? 3);
const inFlight = 2 * os.availableParallelism();

async function hashUntil(deadline: number): Promise<number> {
  let hashes = 0;
  while (performance.now() < deadline) {
    await hashPassword("correct horse battery staple");
    hashes++;
  }
  return hashes;
}

async function measure(forMs: number) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const lanes = await Promise.all(Array.from({ length: inFlight }, () => hashUntil(started + forMs)));
  const hashes = lanes.reduce((sum, count) => sum + count, 0);
  const { user, system } = process.cpuUsage(cpu);
  return {
    hashesPerSecond: hashes / ((performance.now() - started) / 1000),
    cpuMsPerHash: (user + system) / 1000 / hashes,
    inFlight,
  };
}

await measure(500); // warm-up: threads started, memory mapped
process.stdout.write(JSON.stringify(await measure(seconds * 1000)) + "\n");
