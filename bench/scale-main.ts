import { parseArgs } from "node:util";
import { printScaleResult, runScaleBench } from "./scale.ts";

// `node bench/scale-main.ts --database postgres://… [--identities N] [--seconds S] [--keep]`: the scale
// benchmark on its own, without the comparison with the bare engine.

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    database: { type: "string" },
    identities: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
  },
});
if (!values.database) throw new Error("--database postgres://… is required");
const result = await runScaleBench({
  database: values.database,
  identities: Number(values.identities),
  seconds: Number(values.seconds),
  keepDatabases: values.keep,
});
if (printScaleResult(result)) process.exitCode = 1;
