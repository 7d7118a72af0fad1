import { routes } from "../src/common/routes.ts";
import type { Server } from "./servers.ts";

// What one sign-in flow costs the store and the network, read off Vrata's own /metrics: the count of
// store queries and of HTTP requests, before and after flows run one after another.

export interface FlowCost {
  flows: number;
  storeQueriesPerFlow: number;
  httpRequestsPerFlow: number;
}

/** The sum of every series of a histogram's `_count` in a Prometheus text answer. */
function countOf(metrics: string, histogram: string): number {
  const prefix = `${histogram}_count`;
  return metrics
    .split("\n")
    .filter((line) => line.startsWith(`${prefix}{`) || line.startsWith(`${prefix} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

async function counts(server: Pick<Server, "url">, metricsToken: string) {
  const response = await fetch(server.url + routes.Metrics.path, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  return {
    queries: countOf(text, "vrata_store_query_duration_seconds"),
    requests: countOf(text, "vrata_http_request_duration_seconds"),
  };
}

export async function measureFlowCost(
  server: Pick<Server, "url">,
  metricsToken: string,
  flow: () => Promise<unknown>,
  flows = 10,
): Promise<FlowCost> {
  const before = await counts(server, metricsToken);
  for (let done = 0; done < flows; done++) await flow();
  const after = await counts(server, metricsToken);
  // The first scrape is counted among the requests once it has been answered.
  return {
    flows,
    storeQueriesPerFlow: (after.queries - before.queries) / flows,
    httpRequestsPerFlow: (after.requests - before.requests - 1) / flows,
  };
}
