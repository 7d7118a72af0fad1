import { parseArgs } from "node:util";

// `npm run bench -- [--database postgres://…] [--cpu-prof] [--only <text>] [--baseline <git ref>]
// [--peers]`, or `npm run bench -- --seed-identities 1000000 --database postgres://…`;
// VRATA_BENCH_SECONDS sets the length of each measured workload (5 s by default).

export interface BenchOptions {
  /** PostgreSQL server to run Vrata on (in a fresh database); SQLite when absent. */
  database?: string;
  /** Profile both servers: node writes a .cpuprofile of each to bench/results/ when it stops. */
  cpuProfile: boolean;
  /** Runs only the workloads whose name contains this text, or one of several separated by commas ("flow" for the sign-in flow), e.g. to profile one. */
  only?: string;
  /** A git ref whose Vrata (one worker) runs in the same rounds as this checkout's: an A/B. */
  baseline?: string;
  /** Also runs Better Auth with its OAuth provider plugin. */
  peers: boolean;
  /** Measures Vrata with a PostgreSQL store of this many people against one of a thousand instead. */
  seedIdentities?: number;
  durationSeconds: number;
}

export function benchOptions(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      database: { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
      only: { type: "string" },
      baseline: { type: "string" },
      peers: { type: "boolean", default: false },
      "seed-identities": { type: "string" },
    },
  });
  const durationSeconds = Number(process.env.VRATA_BENCH_SECONDS ?? 5);
  if (!(durationSeconds > 0)) throw new Error("VRATA_BENCH_SECONDS must be a positive number");
  const seedIdentities =
    values["seed-identities"] === undefined ? undefined : Number(values["seed-identities"]);
  if (seedIdentities !== undefined && !(Number.isInteger(seedIdentities) && seedIdentities > 0)) {
    throw new Error("--seed-identities must be a positive whole number");
  }
  return {
    ...(seedIdentities === undefined ? {} : { seedIdentities }),
    ...(values.database ? { database: values.database } : {}),
    cpuProfile: values["cpu-prof"],
    ...(values.only ? { only: values.only } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    peers: values.peers,
    durationSeconds,
  };
}
