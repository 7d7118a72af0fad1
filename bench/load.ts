import autocannon from "autocannon";
import type { Measurement } from "./stats.ts";

// Closed-loop HTTP load with autocannon: a fixed number of connections, each sending its next request
// as soon as the previous answer is in.

export const connections = 10;

export interface Workload {
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** A 2xx answer that says the wrong thing (an inactive token, no token) counts as an error too. */
  verify: (body: string) => boolean;
  /**
   * For workloads where each request needs what the previous answer gave (a rotated refresh token):
   * makes one connection's request, which keeps that connection's state in its own closure.
   */
  perConnection?: () => autocannon.Request;
  /** Requests in flight at once; `connections` unless given. */
  connections?: number;
}

/**
 * Loads `base` with the workload for `seconds`. With `serverCpu` (the server's CPU counter), the
 * server's CPU time over exactly the measured window is kept beside the requests answered in it.
 */
export async function load(
  base: string,
  workload: Workload,
  seconds: number,
  serverCpu?: () => number,
): Promise<Measurement> {
  let wrongAnswers = 0;
  let firstError: string | undefined;
  // Checked here rather than with autocannon's verifyBody, which also sees the non-2xx answers that
  // autocannon counts already, and would count them twice.
  const checked = (request: autocannon.Request): autocannon.Request => ({
    ...request,
    onResponse: (status, body, context, headers) => {
      const success = status >= 200 && status < 300;
      const right = success && workload.verify(body);
      if (success && !right) wrongAnswers++;
      if (!right) firstError ??= `${status} ${body.slice(0, 300)}`;
      if (typeof request.onResponse === "function") request.onResponse(status, body, context, headers);
    },
  });
  const { perConnection } = workload;
  const cpuAtStart = serverCpu?.();
  const result = await autocannon({
    url: base + workload.path,
    connections: workload.connections ?? connections,
    duration: seconds,
    method: workload.method ?? "GET",
    ...(workload.headers ? { headers: workload.headers } : {}),
    ...(workload.body ? { body: workload.body } : {}),
    requests: [checked({})],
    // autocannon shares the request list between connections and clears a request's context before
    // each request, so per-connection state needs a list of each connection's own.
    ...(perConnection ? { setupClient: (client) => client.setRequests([checked(perConnection())]) } : {}),
  });
  const serverCpuMs = cpuAtStart === undefined ? undefined : (serverCpu?.() ?? 0) - cpuAtStart;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    // Every response must be a success: a failing workload is reported as failed, never as fast.
    errors: result.errors + result.timeouts + result.non2xx + wrongAnswers,
    ...(firstError === undefined ? {} : { firstError }),
    requests: result.requests.total,
    ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
  };
}
