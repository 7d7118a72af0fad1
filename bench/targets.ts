// design.md §9's targets that are not per workload (those are in workloads.ts). Every one gets a
// verdict in the printed report; none fails the run.

export const targets = {
  /** Vrata per core against Better Auth per core, in requests per second, on every workload. */
  peerMinRatio: 2.5,
  /** Store queries of one password sign-in, authorize to code exchange. */
  flowMaxStoreQueries: 25,
  /** Vrata's own CPU per password sign-in apart from the argon2id hash, as a multiple of the hash. */
  flowMaxNonHashCpuOfHash: 1,
  /** Other requests while passwords are hashed. */
  otherRequestsP99Ms: 50,
  /** One worker, from spawning it to its first discovery answer. */
  coldStartMs: 1000,
  /** Per worker (and for the primary). */
  idleRssMb: 120,
};

export type Verdict = "met" | "NOT MET" | "FAILED (errors)" | "no target" | "-";

export function verdict(failed: boolean, met: boolean | undefined): Verdict {
  if (failed) return "FAILED (errors)";
  if (met === undefined) return "no target";
  return met ? "met" : "NOT MET";
}
