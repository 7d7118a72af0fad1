// The targets that are not ratios to the bare engine (those are in workloads.ts). They are
// stricter than design.md §9 (cold start 1.5 s, idle memory 150 MB).

export const targets = {
  /** Password sign-ins are bounded by argon2: the rest of a flow may cost at most a quarter more. */
  flowShareOfArgon2: 0.75,
  /** Other requests while passwords are hashed. */
  otherRequestsP99Ms: 50,
  coldStartMs: 1000,
  /** Per worker (and for the primary). */
  idleRssMb: 120,
  /** One password sign-in as counted on 2026-11-24, before its queries were cut (`npm run bench`). */
  flowCostBefore: { storeQueries: 75, httpRequests: 9 },
};

export type Verdict = "met" | "NOT MET" | "FAILED (errors)" | "no target";

export function verdict(failed: boolean, met: boolean | undefined): Verdict {
  if (failed) return "FAILED (errors)";
  if (met === undefined) return "no target";
  return met ? "met" : "NOT MET";
}
