import { maxLifespanSeconds } from "../../../common/api/template.ts";

// Token lifespans as people think of them (a number of minutes, hours or days), stored in seconds.

export const lifespanUnits = ["minutes", "hours", "days"] as const;
export type LifespanUnit = (typeof lifespanUnits)[number];

export const secondsPer: Record<LifespanUnit, number> = { minutes: 60, hours: 3600, days: 86400 };

/** A lifespan as its field edits it: the number as typed and its unit. */
export interface LifespanInput {
  readonly amount: string;
  readonly unit: LifespanUnit;
}

/**
 * The lifespan in the largest unit that holds it whole; a number of seconds no unit holds whole is
 * shown in minutes with two decimals, which still turns back into the same seconds.
 */
export function lifespanInput(seconds: number | undefined): LifespanInput {
  if (seconds === undefined) return { amount: "", unit: "days" };
  const whole = [...lifespanUnits].reverse().find((unit) => seconds % secondsPer[unit] === 0);
  if (whole) return { amount: String(seconds / secondsPer[whole]), unit: whole };
  return { amount: String(Math.round((seconds / secondsPer.minutes) * 100) / 100), unit: "minutes" };
}

/**
 * The lifespan in whole seconds: `undefined` when nothing is typed, `null` when the number is not a
 * lifespan the server accepts (not a number, not above zero, or over ten years).
 */
export function lifespanSeconds(input: LifespanInput): number | undefined | null {
  const text = input.amount.trim().replace(",", ".");
  if (text === "") return undefined;
  const amount = Number(text);
  if (!Number.isFinite(amount)) return null;
  const seconds = Math.round(amount * secondsPer[input.unit]);
  return seconds > 0 && seconds <= maxLifespanSeconds ? seconds : null;
}
