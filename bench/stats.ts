export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** What the first failing request got, to tell why a workload failed. */
  firstError?: string;
}

/**
 * Rounds of one workload on one server, as one measurement: the mean throughput, the median of the
 * rounds' medians, and the worst round's p99 (latency samples of separate rounds cannot be merged).
 */
export function combined(rounds: readonly Measurement[]): Measurement {
  const firstError = rounds.find((round) => round.firstError !== undefined)?.firstError;
  return {
    requestsPerSecond: rounds.reduce((sum, round) => sum + round.requestsPerSecond, 0) / rounds.length,
    p50Ms: percentile(
      rounds.map((round) => round.p50Ms),
      0.5,
    ),
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    ...(firstError === undefined ? {} : { firstError }),
  };
}

/** The value below which the share `q` of the samples lie (nearest rank). */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
