import type { FastifyBaseLogger } from "fastify";
import type { Completed, FlowProvider } from "../../common/api/flow.ts";
import { logEvent } from "../operations/events.ts";
import { authSteps } from "../operations/metrics.ts";
import type { Flow } from "./flows.ts";
import { lastCompleted } from "./state.ts";

export interface OutcomeDetails {
  /** The methods the step used, when the flow's state does not name them (a provider that failed). */
  methods?: readonly FlowProvider[];
  /** Why the flow failed: its guesses were used up unless a provider says otherwise. */
  failure?: "guesses" | "providerDenied" | "providerFailed";
}

/**
 * A step that signed in, signed up or failed the flow: counted by the methods it used, and logged.
 * Called once what the step did is stored.
 */
export function reportAuthOutcome(
  log: FastifyBaseLogger,
  flow: Flow,
  before: Completed | undefined,
  { methods = flow.state.providers, failure = "guesses" }: OutcomeDetails = {},
): void {
  const after = lastCompleted(flow.state);
  if (after === before || (after !== "signin" && after !== "signup" && after !== "failed")) return;
  const method = methods.join("+") || "none";
  authSteps.inc({ method, outcome: after });
  const about = { flowId: flow.id, organizationId: flow.organizationId, clientId: flow.clientId };
  if (after === "failed") logEvent(log, "signInFailed", { ...about, method, reason: failure });
  else
    logEvent(log, after === "signup" ? "signUp" : "signIn", {
      ...about,
      accountId: flow.state.accountId ?? "",
      method,
    });
}
