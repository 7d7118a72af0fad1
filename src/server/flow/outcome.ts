import type { FastifyRequest } from "fastify";
import { accessibleIdentities } from "../access/identities.ts";
import { joinOrganization } from "../identities/memberships.ts";
import { HttpError } from "../http/errors.ts";
import { deactivateSessions } from "../store/flows.ts";
import { isBlocked } from "../store/blocks.ts";
import { membershipsIn } from "../store/identities.ts";
import type { FlowDeps } from "./deps.ts";
import type { Flow, StepRequest } from "./flows.ts";
import { clearSessionCookie, requireSession, requireSessionIfAny } from "../access/session.ts";
import { addCompleted, authenticated, newFlowState } from "./state.ts";

// The steps after the sign-in: choosing an identity, declining, starting over, and getting ready to
// go back to the app (reference §4.8).

/** Signs the flow out so that another account can sign in; the flow's guesses stay counted. */
export async function restart(deps: FlowDeps, request: FastifyRequest, step: StepRequest): Promise<void> {
  const { flow, effects } = step;
  await requireSession(deps, request, flow);
  if (!authenticated(flow.state)) throw new HttpError(400, "badRequest", "this flow cannot start over");
  const { sessionId, locale } = flow.state;
  if (sessionId) effects.write((db) => deactivateSessions(db, [sessionId]));
  effects.onceStored((reply) => clearSessionCookie(reply, flow.id));
  flow.state = newFlowState(locale);
}

export async function decline(deps: FlowDeps, request: FastifyRequest, flow: Flow): Promise<void> {
  await requireSession(deps, request, flow);
  if (!addCompleted(flow.state, "declined")) throw new HttpError(400, "badRequest", "nothing to decline now");
}

export async function chooseIdentity(
  deps: FlowDeps,
  request: FastifyRequest,
  flow: Flow,
  identityId: string,
): Promise<void> {
  const accountId = await requireSession(deps, request, flow);
  if (!authenticated(flow.state)) throw new HttpError(400, "badRequest", "no identity can be chosen now");
  const access = (await accessibleIdentities(deps.db, accountId)).get(identityId);
  if (!access) throw new HttpError(404, "notFound", "no such identity");
  // Also a new identity of an account the organization blocked: the block covers the account.
  if (await isBlocked(deps.db, flow.organizationId, identityId, accountId))
    throw new HttpError(400, "identityBlocked", "the identity is blocked in this organization");
  const [existing] = await membershipsIn(deps.db, flow.organizationId, [identityId]);
  if (existing && !existing.active)
    throw new HttpError(400, "identityDisabled", "the identity is disabled in this organization");
  if (!existing && access !== "admin") {
    throw new HttpError(403, "forbidden", "only an admin of the identity can join it to an organization");
  }
  // Signing in to the organization's app is how a person and the organization both agree to a membership.
  const membership =
    existing ?? (await joinOrganization(deps.db, accountId, identityId, flow.organizationId)).membership;
  if (!addCompleted(flow.state, "identity"))
    throw new HttpError(400, "badRequest", "no identity can be chosen now");
  flow.state.identityId = identityId;
  flow.state.membershipId = membership.id;
}

export async function readyToRedirect(deps: FlowDeps, request: FastifyRequest, flow: Flow): Promise<void> {
  await requireSessionIfAny(deps, request, flow);
  if (!addCompleted(flow.state, "finishReady"))
    throw new HttpError(400, "badRequest", "the flow is not ready to return to the app");
}
