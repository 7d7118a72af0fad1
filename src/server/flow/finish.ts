import type { FastifyReply, FastifyRequest } from "fastify";
import type { Interaction, InteractionResults } from "oidc-provider";
import { accountPageScope } from "../../common/limits.ts";
import { recordActivity } from "../activity/activity.ts";
import { acrOf } from "../accounts/second-factors.ts";
import { amrOfProviders } from "./auth-step.ts";
import { isAccountClient } from "../oidc/account-client.ts";
import type { CheckedConsent } from "../oidc/accounts.ts";
import { findGrantAccount, insertGrantAccount } from "../store/flows.ts";
import { recordApplicationUse } from "../store/identities.ts";
import { saveApplicationChoice, splitScopes } from "../store/application-choices.ts";
import type { FlowDeps } from "./deps.ts";
import { saveFlow, type Flow } from "./flows.ts";
import { joinOnCompletion } from "./outcome.ts";
import { addCompleted, lastCompleted } from "./state.ts";

/**
 * The browser's single sign-on session is for someone else: another account (or, made by an earlier
 * version, an identity). It ends, as signing out would, so that this sign-in starts a fresh one (the
 * engine would otherwise stop to ask for a sign-out first).
 */
async function endOtherSession(deps: FlowDeps, interaction: Interaction, accountId: string) {
  const session = interaction.session;
  if (!session?.accountId || session.accountId === accountId) return;
  const ended = await deps.provider.Session.find(session.cookie);
  if (ended) {
    await ended.destroy();
    await deps.logouts.announce(ended);
  }
  // Saved with the result.
  delete interaction.session;
}

/**
 * The grant for the app's client and the identity chosen: this session's when it is for that identity,
 * else a new one (the grant of another identity keeps speaking for it, in another browser say). The
 * person's choice for the app is remembered with the scopes agreed to, for the app's other clients and
 * later sessions.
 */
async function grantForChoice(
  deps: FlowDeps,
  interaction: Interaction,
  flow: Flow,
  chosen: {
    accountId: string;
    identityId: string;
    membershipId: string;
    /** What was agreed when the identity was chosen for the app before (undefined: it was not). */
    agreedBefore: readonly string[] | undefined;
  },
): Promise<string> {
  const { accountId, identityId, membershipId, agreedBefore } = chosen;
  const { db, provider } = deps;
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const sameIdentity =
    existing?.jti !== undefined &&
    existing.accountId === accountId &&
    (await findGrantAccount(db, existing.jti))?.identityId === identityId;
  const grant =
    existing && sameIdentity ? existing : new provider.Grant({ accountId, clientId: flow.clientId });
  // Vrata has no consent screen: the person agreed by choosing the identity for this app.
  const asked = typeof interaction.params.scope === "string" ? splitScopes(interaction.params.scope) : [];
  if (asked.length > 0) grant.addOIDCScope(asked.join(" "));
  const grantId = await grant.save();
  // The same choice again, for no more than was agreed, changes nothing.
  if (agreedBefore && asked.every((scope) => agreedBefore.includes(scope))) return grantId;
  await saveApplicationChoice(
    db,
    {
      accountId,
      organizationId: flow.organizationId,
      applicationId: flow.applicationId,
      membershipId,
      scopes: [...new Set([...(agreedBefore ?? []), ...asked])],
    },
    Date.now(),
  );
  return grantId;
}

/** Vrata's answer to the app: an error for failed and declined flows, else a grant for the chosen identity. */
async function interactionResult(
  deps: FlowDeps,
  interaction: Interaction,
  flow: Flow,
  outcome: string,
): Promise<InteractionResults> {
  if (outcome === "failed") return { error: "access_denied", error_description: "signing in or up failed" };
  if (outcome === "declined") return { error: "access_denied", error_description: "the person declined" };

  const { state } = flow;
  const { accountId, identityId } = state;
  // Never a sign-in on the first factor alone, whatever the steps before let through.
  if (accountId && state.secondFactor)
    return { error: "access_denied", error_description: "the second factor was not proven" };
  // Nothing is finished for an app while the account waits to be deleted, unless its person keeps it.
  if (state.deletionDueAt !== undefined)
    return { error: "access_denied", error_description: "the account is pending deletion" };
  if (accountId && (await isAccountClient(deps.db, flow.clientId)))
    return accountPageResult(deps, interaction, flow, accountId);
  if (!accountId || !identityId) return { error: "access_denied", error_description: "no identity chosen" };
  const membership = await joinOnCompletion(deps.db, flow, accountId, identityId);
  if (!membership)
    return { error: "access_denied", error_description: "the identity can no longer be used here" };
  // Asked for since the sign-in (in another browser, say): read afresh with the identity's standing.
  if (membership.accountDeletionDueAt !== undefined)
    return { error: "access_denied", error_description: "the account is pending deletion" };
  const membershipId = membership.id;
  const stillSignedIn = state.singleSignOn === true && interaction.session?.accountId === accountId;
  await endOtherSession(deps, interaction, accountId);
  const grantId = await grantForChoice(deps, interaction, flow, {
    accountId,
    identityId,
    membershipId,
    agreedBefore: membership.agreedScopes,
  });

  const now = Date.now();
  await insertGrantAccount(
    deps.db,
    { grantId, accountId, identityId, sessionId: state.sessionId ?? null },
    now,
  );
  await recordApplicationUse(
    deps.db,
    { membershipId, applicationId: flow.applicationId, usedBefore: membership.usesApplication },
    now,
  );
  await recordActivity(
    deps.db,
    accountId,
    {
      type: "signIn",
      identities: [{ id: identityId }],
      organizations: [{ id: flow.organizationId }],
      applications: [{ organizationId: flow.organizationId, applicationId: flow.applicationId }],
      providers: state.providers,
    },
    [{ organizationId: flow.organizationId, membershipId }],
  );
  const consent: CheckedConsent = { grantId, accountId, membershipId, identityId };
  return { ...loginResult(flow, accountId, stillSignedIn), select_account: {}, consent };
}

/**
 * The session is the account's (design.md §5). A person who was signed in already proved nothing
 * anew: the session keeps when and how they signed in.
 */
function loginResult(flow: Flow, accountId: string, stillSignedIn: boolean): InteractionResults {
  const { state } = flow;
  // A flow begun before `amr` was kept names its methods only.
  const amr = state.amr ?? amrOfProviders(state.providers);
  if (stillSignedIn) return {};
  return {
    login: {
      accountId,
      amr,
      acr: acrOf(amr),
      remember: true,
      ...(state.authTime ? { ts: state.authTime } : {}),
    },
  };
}

/**
 * The account page's sign-in: the account's own, with no identity, so no organization hears of it.
 * Its grant is this session's when it is the account's, else a new one.
 */
async function accountPageResult(
  deps: FlowDeps,
  interaction: Interaction,
  flow: Flow,
  accountId: string,
): Promise<InteractionResults> {
  const { state } = flow;
  const stillSignedIn = state.singleSignOn === true && interaction.session?.accountId === accountId;
  await endOtherSession(deps, interaction, accountId);
  const existing = interaction.grantId ? await deps.provider.Grant.find(interaction.grantId) : undefined;
  const grant =
    existing?.accountId === accountId
      ? existing
      : new deps.provider.Grant({ accountId, clientId: flow.clientId });
  grant.addOIDCScope(accountPageScope);
  const grantId = await grant.save();
  // The account's own entry: no organization sees it.
  await recordActivity(deps.db, accountId, {
    type: "signIn",
    applications: [{ organizationId: flow.organizationId, applicationId: flow.applicationId }],
    providers: state.providers,
  });
  return { ...loginResult(flow, accountId, stillSignedIn), select_account: {}, consent: { grantId } };
}

/**
 * The flow page asked for with a flow that is ready: it is marked finished and the browser goes back
 * to the app through oidc-provider. Returns false when there is nothing to finish (serve the page).
 */
export async function finishFlow(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<boolean> {
  if (lastCompleted(flow.state) !== "finishReady") return false;
  const outcome = flow.state.completed.at(-2) ?? "failed";
  addCompleted(flow.state, "finished");
  await saveFlow(deps.db, flow);
  let interaction: Interaction;
  let result: InteractionResults;
  try {
    interaction = await deps.provider.interactionDetails(request.raw, reply.raw);
    result = await interactionResult(deps, interaction, flow, outcome);
  } catch (error) {
    // Without oidc-provider's interaction cookie (another browser, or it expired) nothing can be sent
    // back; the page then says the flow has finished.
    request.log.info({ err: error }, "flow could not be returned to the app");
    return false;
  }
  // What oidc-provider's interactionFinished does, without reading the interaction a second time.
  interaction.result = result;
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  await reply.redirect(interaction.returnTo, 303);
  return true;
}
