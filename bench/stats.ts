export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** What the first failing request got, to tell why a workload failed. */
  firstError?: string;
  /** Requests answered in the measured window(s). */
  requests?: number;
  /** The server's own CPU time over the same window(s): its processes' counters, at start and end. */
  serverCpuMs?: number;
}

const sumOf = (rounds: readonly Measurement[], field: "requests" | "serverCpuMs") =>
  rounds.some((round) => round[field] === undefined)
    ? undefined
    : rounds.reduce((sum, round) => sum + (round[field] ?? 0), 0);

/**
 * Rounds of one workload on one server, as one measurement: the mean throughput, the median of the
 * rounds' medians, the worst round's p99 (latency samples of separate rounds cannot be merged), and
 * the requests and server CPU time of all rounds together.
 */
export function combined(rounds: readonly Measurement[]): Measurement {
  const firstError = rounds.find((round) => round.firstError !== undefined)?.firstError;
  const [requests, serverCpuMs] = [sumOf(rounds, "requests"), sumOf(rounds, "serverCpuMs")];
  return {
    requestsPerSecond: rounds.reduce((sum, round) => sum + round.requestsPerSecond, 0) / rounds.length,
    p50Ms: percentile(
      rounds.map((round) => round.p50Ms),
      0.5,
    ),
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    ...(firstError === undefined ? {} : { firstError }),
    ...(requests === undefined ? {} : { requests }),
    ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
  };
}

/** The value below which the share `q` of the samples lie (nearest rank). */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
