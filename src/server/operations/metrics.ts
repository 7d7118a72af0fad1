import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { productVersion } from "../product-version.ts";

// What operators watch (README "Metrics"), in Prometheus' text format at /metrics. Labels take few
// values (route names, methods, outcomes), never identifiers of people or requests.

export const registry = new Registry();

// The process's CPU, memory, handles and event loop, and Node.js's heap and garbage collection
// (process_* and nodejs_*): summed over the workers, or their average, minimum or maximum where a
// sum means nothing (prom-client's aggregators).
collectDefaultMetrics({ register: registry });

/** Which Vrata and which Node.js run: one series of value 1, the same from every worker. */
new Gauge({
  name: "vrata_build_info",
  help: "The version of Vrata and of Node.js running, as labels of a constant 1",
  labelNames: ["version", "node"] as const,
  registers: [registry],
  aggregator: "first",
}).set({ version: productVersion(), node: process.version }, 1);

export const httpRequests = new Histogram({
  name: "vrata_http_request_duration_seconds",
  help: "HTTP requests by route, method and status class, and how long they took",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const authSteps = new Counter({
  name: "vrata_auth_steps_total",
  help: "Completed sign-in steps of auth flows by method and outcome (signin, signup, failed)",
  labelNames: ["method", "outcome"] as const,
  registers: [registry],
});

export const tokensIssued = new Counter({
  name: "vrata_tokens_issued_total",
  help: "Token endpoint successes by grant type",
  labelNames: ["grant"] as const,
  registers: [registry],
});

export const limitRefusals = new Counter({
  name: "vrata_rate_limit_refusals_total",
  help: "Requests refused because a rate limit was reached, by limit",
  labelNames: ["limit"] as const,
  registers: [registry],
});

export const storeQueries = new Histogram({
  name: "vrata_store_query_duration_seconds",
  help: "Store queries and how long they took, by kind of statement",
  labelNames: ["statement"] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

export const passwordHashing = new Gauge({
  name: "vrata_password_hashes",
  help: "Password hashes running and waiting for a thread",
  labelNames: ["state"] as const,
  registers: [registry],
});

/** The limit a bucket key belongs to: its first part ("guess", "code-send", ...), never the rest. */
export const limitOfBucket = (key: string) => key.split(":", 1)[0] ?? "unknown";

/** The kind of statement of a query's SQL ("select", "insert", ...). */
export function statementOf(sql: string): string {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? "other";
  return ["select", "insert", "update", "delete", "with", "begin", "commit", "rollback"].includes(word)
    ? word
    : "other";
}
