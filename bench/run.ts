import { runComparison } from "./compare.ts";
import { benchOptions } from "./options.ts";
import { writeResult } from "./report.ts";
import { printScaleResult, runScaleBench } from "./scale.ts";

// The servers it starts have no load balancer to turn away: each stops as soon as it is told to.
process.env.VRATA_DRAIN_DELAY ??= "0";

// `npm run bench`: Vrata against the bare engine (compare.ts), or with --seed-identities, Vrata with a
// store of that many people against one of a thousand (scale.ts).

const options = benchOptions(process.argv.slice(2));
let failed: boolean;
if (options.seedIdentities === undefined) {
  failed = await runComparison(options);
} else {
  if (options.database === undefined) throw new Error("--seed-identities needs --database postgres://…");
  const result = await runScaleBench({
    database: options.database,
    identities: options.seedIdentities,
    seconds: options.durationSeconds,
  });
  failed = printScaleResult(result);
  console.log(`results written to ${writeResult(`scale-${options.seedIdentities}`, result)}`);
}
if (failed) process.exitCode = 1;
