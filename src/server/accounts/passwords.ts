import os from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { passwordHashesInFlight, passwordHashQueueLength } from "../../common/limits.ts";
import { TooManyRequestsError } from "../http/errors.ts";
import { passwordHashing } from "../operations/metrics.ts";

// argon2id with OWASP's minimum parameters (design.md §2). The library hashes on its own threads, so
// the event loop keeps serving other requests meanwhile.
// The library's Algorithm is a const enum, which type stripping cannot inline; 2 is its Argon2id.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const argon2id = 2 as Algorithm;
const parameters = { algorithm: argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * At most a few hashes run at once (each takes 19 MiB and a thread), and a bounded number wait: a
 * flood of sign-ups is refused with 429 instead of queueing work that delays everyone's sign-in.
 */
class WorkLimit {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #concurrency: number;
  readonly #queueLength: number;

  constructor(concurrency: number, queueLength: number) {
    this.#concurrency = concurrency;
    this.#queueLength = queueLength;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.#concurrency) this.#running += 1;
    else if (this.#waiting.length >= this.#queueLength) {
      throw new TooManyRequestsError("the server is busy hashing passwords; try again shortly", 1);
    } else {
      // The finishing work hands its slot over, so `#running` stays as it was.
      const turn = new Promise<void>((resolve) => this.#waiting.push(resolve));
      this.#report();
      await turn;
    }
    this.#report();
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
      this.#report();
    }
  }

  #report(): void {
    passwordHashing.set({ state: "running" }, this.#running);
    passwordHashing.set({ state: "waiting" }, this.#waiting.length);
  }
}

/**
 * How many hashes one of `processes` serving processes computes at once on `cores` cores: each keeps a
 * core busy while it runs (on the thread pool), and more of them than the process has cores to itself
 * would not hash sooner, only leave the event loop less of the cores and slow every other request
 * (at most passwordHashesInFlight).
 */
export function hashesAtOnce(processes: number, cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(passwordHashesInFlight, Math.floor(cores / processes)));
}

let hashing = new WorkLimit(hashesAtOnce(1), passwordHashQueueLength);

/** Sets the hashes at once for a process that serves beside `processes - 1` others. */
export function shareCoresWith(processes: number): void {
  hashing = new WorkLimit(hashesAtOnce(processes), passwordHashQueueLength);
}

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, parameters));
}

export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(phc, password));
  } catch (error) {
    if (error instanceof TooManyRequestsError) throw error;
    return false;
  }
}

/** A stored hash made with weaker parameters than today's is replaced on the next sign-in. */
export function needsRehash(phc: string): boolean {
  return !phc.startsWith(
    `$argon2id$v=19$m=${parameters.memoryCost},t=${parameters.timeCost},p=${parameters.parallelism}$`,
  );
}
