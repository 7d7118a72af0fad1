import type { FastifyReply, FastifyRequest } from "fastify";
import { newSession } from "../access/session.ts";
import { HttpError } from "../http/errors.ts";
import { accountStanding } from "../store/accounts.ts";
import type { FlowDeps } from "./deps.ts";
import { commitStep, type Flow } from "./flows.ts";
import { addCompleted } from "./state.ts";
import { stepUpReason } from "../oidc/interaction-policy.ts";
import { secondFactorAfter } from "./second-factor-policy.ts";
import { StepEffects } from "./step-effects.ts";
import { holdIfDeletionPending } from "./deletion-pending.ts";

/**
 * A flow begun by a browser signed in to Vrata already starts at the identity step: the person chooses
 * (or confirms) the identity this app's organization sees, without typing credentials again
 * (design.md §5). It does not when the app asks for a fresh sign-in (`prompt=login`, `max_age`, a hint
 * naming someone else: the engine's login prompt), or when the session is of an earlier version, which
 * named an identity instead of the account.
 *
 * When the session is below the level the organization or the app asks for (the login prompt's only
 * reason is `second_factor_required`), the flow continues as the same person and waits for a second
 * factor: they do not type their first factor again.
 *
 * Only the browser that holds the flow's interaction cookie gets this far: the engine gave it with the
 * authorization request, to the browser whose single sign-on session the interaction names.
 */
export async function continueSignedIn(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<void> {
  // A stored flow has begun its own way already.
  if (flow.version !== 0) return;
  const interaction = await deps.provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
  if (!interaction || interaction.uid !== flow.id) return;
  const { prompt } = interaction;
  const stepUp = prompt.name === "login" && prompt.reasons.every((reason) => reason === stepUpReason);
  if (prompt.name === "login" && !stepUp) return;
  const accountId = interaction.session?.accountId;
  const standing = accountId ? await accountStanding(deps.db, accountId) : undefined;
  if (!accountId || !standing) return;

  const { state } = flow;
  if (stepUp) {
    // What the session proved stays proven; the second factor adds to it.
    const amr = interaction.session?.amr ?? [];
    const secondFactor = await secondFactorAfter(deps, flow, amr, standing.credentials);
    if (!secondFactor) return;
    state.amr = amr;
    state.secondFactor = secondFactor;
  }
  addCompleted(state, "signin");
  state.accountId = accountId;
  state.singleSignOn = true;
  holdIfDeletionPending(state, standing.deletionDueAt);
  const session = newSession(deps, flow.id, accountId, Date.now());
  state.sessionId = session.id;
  const effects = new StepEffects();
  effects.write(session.store);
  effects.onceStored(session.setCookie);
  try {
    await commitStep(deps.db, flow, effects);
  } catch (error) {
    // The same page loaded twice at once: the other load began the flow.
    if (error instanceof HttpError && error.statusCode === 409) return;
    throw error;
  }
  effects.applyTo(reply);
}
