import { percentile } from "./stats.ts";

// A light request sent at a fixed rate while something heavy runs, to see what the heavy work does
// to everybody else. Open loop: a slow answer does not hold back the next request, so queueing on the
// server shows up in the figures instead of lowering the rate.

export interface ProbeResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** Starts sending `request` `perSecond` times a second; `stop` waits for the answers still due. */
export function startProbe(
  request: () => Promise<boolean>,
  perSecond: number,
): { stop: () => Promise<ProbeResult> } {
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  let errors = 0;
  const send = () => {
    const started = performance.now();
    const answer = request().then(
      (ok) => (ok ? latencies.push(performance.now() - started) : errors++),
      () => errors++,
    );
    const settled = answer.then(() => {
      pending.delete(settled);
    });
    pending.add(settled);
  };
  const timer = setInterval(send, 1000 / perSecond);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return {
        requests: latencies.length + errors,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        errors,
      };
    },
  };
}
