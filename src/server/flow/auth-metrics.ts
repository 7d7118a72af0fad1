import type { Completed } from "../../common/api/flow.ts";
import { authSteps } from "../operations/metrics.ts";
import { lastCompleted, type FlowState } from "./state.ts";

/** A step that signed in, signed up or failed the flow is counted by the methods it used. */
export function countAuthOutcome(before: Completed | undefined, state: FlowState): void {
  const after = lastCompleted(state);
  if (after === before || (after !== "signin" && after !== "signup" && after !== "failed")) return;
  authSteps.inc({ method: state.providers.join("+") || "none", outcome: after });
}
