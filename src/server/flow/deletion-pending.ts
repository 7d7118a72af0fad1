import type { FastifyRequest } from "fastify";
import { recordActivity } from "../activity/activity.ts";
import { requireSession } from "../access/session.ts";
import { HttpError } from "../http/errors.ts";
import { cancelDeletion } from "../store/account-deletion.ts";
import type { FlowDeps } from "./deps.ts";
import type { Flow } from "./flows.ts";
import { authenticated, type FlowState } from "./state.ts";

// A sign-in of an account its person asked to delete: once every factor is proven, the card says
// when the account will be deleted and offers to keep it. Until the person keeps it, nothing of the
// account is shown to the app's flow and nothing is finished for the app (finish.ts refuses).

/**
 * Holds the sign-in of an account pending deletion (`dueAt`, read with the account's standing), as
 * the flow state remembers it.
 */
export function holdIfDeletionPending(state: FlowState, dueAt: number | undefined): void {
  if (dueAt === undefined) delete state.deletionDueAt;
  else state.deletionDueAt = dueAt;
}

/** The sign-in waits for its person to keep the account, every factor being proven. */
export const awaitsKeepingAccount = (state: Pick<FlowState, "deletionDueAt" | "secondFactor">): boolean =>
  state.deletionDueAt !== undefined && state.secondFactor === undefined;

/** "Keep my account and continue": the deletion is cancelled and the sign-in goes on. */
export async function keepAccountInFlow(deps: FlowDeps, request: FastifyRequest, flow: Flow): Promise<void> {
  await requireSession(deps, request, flow);
  const { state } = flow;
  if (!authenticated(state) || !awaitsKeepingAccount(state) || !state.accountId)
    throw new HttpError(400, "badRequest", "this sign-in is not waiting for the account to be kept");
  if (await cancelDeletion(deps.db, state.accountId))
    await recordActivity(deps.db, state.accountId, { type: "accountDeletionCancelled" });
  delete state.deletionDueAt;
}
