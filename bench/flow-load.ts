import { percentile } from "./stats.ts";

// Whole sign-in flows, each a dozen requests that depend on one another, run by a fixed number of
// workers in a loop; autocannon cannot chain requests like that.

export interface FlowMeasurement {
  flows: number;
  flowsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  firstError?: string;
}

export async function flowLoad(
  flow: () => Promise<unknown>,
  workers: number,
  seconds: number,
): Promise<FlowMeasurement> {
  const durations: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const flowStarted = performance.now();
      try {
        await flow();
        durations.push(performance.now() - flowStarted);
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  // Flows still running at the deadline finish and count: the time they took counts as well.
  const elapsedSeconds = (performance.now() - started) / 1000;
  return {
    flows: durations.length,
    flowsPerSecond: durations.length / elapsedSeconds,
    p50Ms: percentile(durations, 0.5),
    p99Ms: percentile(durations, 0.99),
    errors: failures.length,
    ...(failures[0] ? { firstError: failures[0] } : {}),
  };
}
