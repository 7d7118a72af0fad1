import type { FastifyReply } from "fastify";
import { maxFlowAttempts } from "../../common/limits.ts";
import { createIdentity } from "../identities/identities.ts";
import type { IdentityFields } from "../../common/api/identity.ts";
import { HttpError } from "../http/errors.ts";
import type { FlowDeps } from "./deps.ts";
import type { Flow } from "./flows.ts";
import { startSession } from "./session.ts";
import { addCompleted } from "./state.ts";
import { recordFailedAttempt, type AttemptSubject } from "./throttle.ts";

/** Auth steps (password, code) only run before the flow has an outcome (reference §4.2). */
export function requireNoAuthStep(flow: Flow): void {
  if (flow.state.completed.length > 0) {
    throw new HttpError(400, "badRequest", "this flow has already completed its sign-in or sign-up");
  }
}

/**
 * The person proved a credential: the flow records the outcome, the browser gets the flow's session
 * cookie, and a new account gets a first identity made from what it signed up with.
 */
export async function completeAuthStep(
  deps: FlowDeps,
  flow: Flow,
  reply: FastifyReply,
  outcome: { accountId: string; signedUp: boolean; identityFields?: IdentityFields },
): Promise<void> {
  const { state } = flow;
  addCompleted(state, outcome.signedUp ? "signup" : "signin");
  state.accountId = outcome.accountId;
  state.signedUp = outcome.signedUp;
  state.authTime = Math.floor(Date.now() / 1000);
  state.sessionId = await startSession(deps, reply, flow.id, outcome.accountId);
  delete state.code;
  delete state.emailOrUsername;
  if (outcome.signedUp && outcome.identityFields) {
    await createIdentity(deps.db, outcome.accountId, outcome.identityFields);
  }
}

/** A wrong password or code: counted for the flow (failing it at the limit) and for throttling. */
export async function countFailedAttempt(deps: FlowDeps, flow: Flow, subject: AttemptSubject): Promise<void> {
  await recordFailedAttempt(deps.db, subject);
  flow.state.attempts += 1;
  if (flow.state.attempts >= maxFlowAttempts) {
    addCompleted(flow.state, "failed");
    delete flow.state.code;
  }
}

export function hasFailed(flow: Flow): boolean {
  return flow.state.completed.includes("failed");
}

/** Identity fields for the first identity of an account that signed up with an e-mail or a username. */
export function identityFromIdentifier(identifier: {
  kind: "email" | "username";
  display: string;
}): IdentityFields {
  if (identifier.kind === "username") return { username: identifier.display };
  const localPart = identifier.display.split("@")[0] ?? "";
  return { email: identifier.display, ...(/^[^\s@]{3,}$/.test(localPart) ? { username: localPart } : {}) };
}
