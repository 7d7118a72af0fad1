import { verdict } from "./targets.ts";
import type { ScaleResult } from "./scale.ts";

// The figures of a scale run as tables: what seeding took, the sign-in flow's median at both sizes,
// and each console list page at both sizes, each with the target and whether it was met (a member
// search for common words has a tighter one).

/** The targets for many people on PostgreSQL. */
export const scaleTargets = {
  /** The sign-in flow's median at the large size, as a multiple of the one at the baseline. */
  flowP50Ratio: 1.2,
  /** Every console list page, at the large size. */
  listP99Ms: 50,
  /** A member search for words many members have, at the large size. */
  commonWordSearchP99Ms: 20,
};

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

/** Prints the run; true when some measurement had errors, so its figures mean nothing. */
export function printScaleResult(result: ScaleResult): boolean {
  const targets = scaleTargets;
  const { baseline, scaled } = result;
  const small = `${baseline.identities}`;
  const large = `${scaled.identities}`;
  console.log(
    `\nVrata on PostgreSQL (1 worker) with ${small} and with ${large} people, ${result.durationSeconds} s each`,
  );
  console.table(
    [baseline, scaled].map(({ identities, seed }) => ({
      people: identities,
      "seed s": fixed(seed.seconds, 1),
      "people/s": fixed(seed.people / seed.seconds),
      "rows s": fixed(seed.phaseSeconds.rows, 1),
      "indexes s": fixed(seed.phaseSeconds.indexes, 1),
      "vacuum s": fixed(seed.phaseSeconds.vacuum, 1),
      rows: Object.values(seed.rows).reduce((sum, count) => sum + count, 0),
      ...seed.rows,
    })),
  );

  const flowErrors = baseline.flow.errors + scaled.flow.errors;
  const flowRatio = scaled.flow.p50Ms / baseline.flow.p50Ms;
  const flowRow = {
    measured: "sign-in flow (password)",
    [`p50 ms at ${small}`]: fixed(baseline.flow.p50Ms),
    [`p50 ms at ${large}`]: fixed(scaled.flow.p50Ms),
    [`p99 ms at ${large}`]: fixed(scaled.flow.p99Ms),
    flows: `${baseline.flow.flows}/${scaled.flow.flows}`,
    ratio: fixed(flowRatio, 2),
    target: `p50 <= ${targets.flowP50Ratio}x`,
    verdict: verdict(flowErrors > 0, flowRatio <= targets.flowP50Ratio),
  };
  console.table([flowRow]);
  if (baseline.flow.firstError ?? scaled.flow.firstError)
    console.log(`first flow error: ${baseline.flow.firstError ?? scaled.flow.firstError}`);

  const listRows = scaled.lists.map(({ name, measurement, commonWords }) => {
    const before = baseline.lists.find((list) => list.name === name)?.measurement;
    const errors = measurement.errors + (before?.errors ?? 0);
    const p99TargetMs = commonWords ? targets.commonWordSearchP99Ms : targets.listP99Ms;
    return {
      page: name,
      [`p50 at ${small}`]: before?.p50Ms ?? "-",
      [`p99 at ${small}`]: before?.p99Ms ?? "-",
      [`p50 at ${large}`]: measurement.p50Ms,
      [`p99 at ${large}`]: measurement.p99Ms,
      "p50 ratio": before ? fixed(measurement.p50Ms / before.p50Ms, 2) : "-",
      "req/s": fixed(measurement.requestsPerSecond),
      target: `p99 < ${p99TargetMs} ms`,
      verdict: verdict(errors > 0, measurement.p99Ms < p99TargetMs),
    };
  });
  console.table(listRows);
  for (const { name, measurement } of [...baseline.lists, ...scaled.lists])
    if (measurement.firstError) console.log(`${name}: first error ${measurement.firstError}`);
  return [flowRow, ...listRows].some((row) => row.verdict === "FAILED (errors)");
}
