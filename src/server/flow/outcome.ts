import type { FastifyRequest } from "fastify";
import { joinOrganization } from "../identities/memberships.ts";
import { HttpError } from "../http/errors.ts";
import { isAccountClient } from "../oidc/account-client.ts";
import { deactivateSessions } from "../store/flows.ts";
import { identityStanding, type IdentityStanding, type MembershipRow } from "../store/identities.ts";
import type { Database } from "../store/database.ts";
import type { FlowDeps } from "./deps.ts";
import type { Flow, StepRequest } from "./flows.ts";
import { clearSessionCookie, requireSession, requireSessionIfAny } from "../access/session.ts";
import { addCompleted, authenticated, awaitsSecondFactor, lastCompleted, newFlowState } from "./state.ts";

// The steps after the sign-in: choosing an identity, declining, starting over, and getting ready to
// go back to the app (reference §4.8).

/** Signs the flow out so that another account can sign in; the flow's guesses stay counted. */
export async function restart(deps: FlowDeps, request: FastifyRequest, step: StepRequest): Promise<void> {
  const { flow, effects } = step;
  await requireSession(deps, request, flow);
  if (!authenticated(flow.state)) throw new HttpError(400, "badRequest", "this flow cannot start over");
  const { sessionId, locale, appScopes = [], personalData = [], requestedAcr } = flow.state;
  if (sessionId) effects.write((db) => deactivateSessions(db, [sessionId]));
  effects.onceStored((reply) => clearSessionCookie(reply, flow.id));
  // What the app asks for is the same for whoever signs in next.
  flow.state = newFlowState(locale, { appScopes, personalData, requestedAcr });
}

export async function decline(deps: FlowDeps, request: FastifyRequest, flow: Flow): Promise<void> {
  await requireSession(deps, request, flow);
  if (!addCompleted(flow.state, "declined")) throw new HttpError(400, "badRequest", "nothing to decline now");
  // Declining needs no second factor: the app is told no. The second factor stays owed, so that the
  // person cannot go on to choose an identity with the first factor alone.
}

interface MembershipForFlow extends Pick<
  IdentityStanding,
  "agreedScopes" | "usesApplication" | "accountDeletionDueAt"
> {
  membership: MembershipRow | undefined;
}

/**
 * The identity's membership of the organization, when the account may use the identity there, with
 * what its standing says of the app and the account; it joins the organization if it is not a member
 * yet. Refused with the reason when it may not: checked when the identity is chosen, and again when
 * the flow completes, as either may change in between.
 */
async function membershipForFlow(
  db: Database,
  flow: Flow,
  accountId: string,
  identityId: string,
  { join }: { join: boolean },
): Promise<MembershipForFlow> {
  const { organizationId } = flow;
  const standing = await identityStanding(db, accountId, identityId, flow);
  if (!standing) throw new HttpError(404, "notFound", "no such identity");
  // Also a new identity of an account the organization blocked: the block covers the account.
  if (standing.blocked)
    throw new HttpError(400, "identityBlocked", "the identity is blocked in this organization");
  const existing = standing.membership;
  if (existing && !existing.active)
    throw new HttpError(400, "identityDisabled", "the identity is disabled in this organization");
  if (!existing && !standing.roles.includes("admin")) {
    throw new HttpError(403, "forbidden", "only an admin of the identity can join it to an organization");
  }
  // An account waiting to be deleted joins nothing (the finish refuses it).
  if (existing || !join || standing.accountDeletionDueAt !== undefined)
    return {
      membership: existing,
      agreedScopes: standing.agreedScopes,
      usesApplication: standing.usesApplication,
      accountDeletionDueAt: standing.accountDeletionDueAt,
    };
  // Nothing was agreed with a membership that begins now, nor used.
  const joined = await joinOrganization(db, accountId, identityId, organizationId);
  return {
    membership: joined.membership,
    agreedScopes: undefined,
    usesApplication: false,
    accountDeletionDueAt: undefined,
  };
}

export async function chooseIdentity(
  deps: FlowDeps,
  request: FastifyRequest,
  flow: Flow,
  identityId: string,
): Promise<void> {
  const accountId = await requireSession(deps, request, flow);
  if (!authenticated(flow.state) || awaitsSecondFactor(flow.state))
    throw new HttpError(400, "badRequest", "no identity can be chosen now");
  // The identity joins the organization only when the flow completes with it (see finish.ts): a
  // person who goes back, declines or leaves has joined nothing.
  await membershipForFlow(deps.db, flow, accountId, identityId, { join: false });
  if (!addCompleted(flow.state, "identity"))
    throw new HttpError(400, "badRequest", "no identity can be chosen now");
  flow.state.identityId = identityId;
}

/**
 * Signing in to the organization's app is how a person and the organization both agree to a
 * membership: the chosen identity joins when the flow completes, unless it may no longer be used.
 */
export async function joinOnCompletion(db: Database, flow: Flow, accountId: string, identityId: string) {
  try {
    const { membership, ...standing } = await membershipForFlow(db, flow, accountId, identityId, {
      join: true,
    });
    return membership && { ...membership, ...standing };
  } catch (error) {
    if (error instanceof HttpError) return undefined;
    throw error;
  }
}

export async function readyToRedirect(deps: FlowDeps, request: FastifyRequest, flow: Flow): Promise<void> {
  await requireSessionIfAny(deps, request, flow);
  const last = lastCompleted(flow.state);
  const declining = last === "declined";
  // Only the account page goes back right after the sign-in: every app gets an identity chosen first.
  if ((last === "signin" || last === "signup") && !(await isAccountClient(deps.db, flow.clientId)))
    throw new HttpError(400, "badRequest", "the flow is not ready to return to the app");
  if ((awaitsSecondFactor(flow.state) && !declining) || !addCompleted(flow.state, "finishReady"))
    throw new HttpError(400, "badRequest", "the flow is not ready to return to the app");
}
