import type { FastifyReply, FastifyRequest } from "fastify";
import { pathFor } from "../../common/routes.ts";
import { normalizeIdentifier } from "../accounts/normalize.ts";
import { HttpError, TooManyRequestsError, type PageDetails } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { credentialName, identityFromProfile } from "../providers/profile.ts";
import { invalidCallback, startUpstreamRequest } from "../providers/requests.ts";
import {
  UpstreamErrorAnswer,
  UpstreamRefused,
  type Upstream,
  type UpstreamAnswer,
  type UpstreamFailure,
  type UpstreamIdentity,
} from "../providers/upstream.ts";
import { findAccountIdByCredential } from "../store/accounts.ts";
import { isUniqueViolation } from "../store/errors.ts";
import type { UpstreamRequest } from "../store/upstream-requests.ts";
import { completeAuthStep, failFlow, requireNoAuthStep, reserveOrRefuse } from "./auth-step.ts";
import type { FlowDeps } from "./deps.ts";
import { commitStep, FlowStepError, loadFlow, saveFlow, type StepRequest } from "./flows.ts";
import { reportAuthOutcome } from "./auth-outcome.ts";
import { lastCompleted } from "./state.ts";
import { newStepRequest } from "./step-request.ts";
import { signUpBucket } from "./throttle.ts";

// Signing in or up with a third-party provider (reference §4.7.5-§4.7.6): the step that sends the
// browser to the provider, and the provider's answer that completes the auth step. The kind of
// provider (OIDC, SAML) only changes how the answer is checked (providers/).

export function upstreamOf(deps: Pick<FlowDeps, "providers">, key: string): Upstream {
  const upstream = deps.providers.get(key);
  if (!upstream) throw new HttpError(404, "notFound", `no provider "${key}"`);
  return upstream;
}

/** Starts a sign-in at the provider: the answer carries where to send the browser. */
export async function providerStart(deps: FlowDeps, step: StepRequest, key: string): Promise<void> {
  const { flow } = step;
  requireNoAuthStep(flow);
  const started = await startUpstreamRequest(deps, upstreamOf(deps, key), { flowId: flow.id });
  // Only the latest start is waited for: an answer to an earlier one is refused.
  flow.state.upstream = { provider: key, request: started.requestId };
  step.effects.write(started.store);
  step.effects.onceStored(started.setCookie);
  step.answer.thirdPartyProvider = { location: started.location };
}

/** The flow the provider's answer is for; one that has ended (expired) makes the answer of no use. */
async function answeredFlow(deps: FlowDeps, upstream: Upstream, flowId: string) {
  try {
    return await loadFlow(deps.db, deps.provider, flowId);
  } catch (error) {
    if (error instanceof HttpError && error.code === "notFound")
      throw invalidCallback("the sign-in this answer is for has ended", { provider: upstream.key });
    throw error;
  }
}

/**
 * The provider answered for a flow: the flow must be waiting for exactly this request. An error from
 * the provider fails the flow (the page explains it); an answer that fails its checks is refused
 * without failing it, and its page leads back to the flow. Returns the flow's page, where the browser
 * goes next.
 */
export async function flowProviderAnswer(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: Upstream,
  pending: UpstreamRequest & { parsedData: Record<string, unknown> },
  answer: UpstreamAnswer,
): Promise<string> {
  const flow = await answeredFlow(deps, upstream, pending.flowId ?? "");
  const backToFlow = { provider: upstream.key, resume: { flowId: flow.id } };
  if (flow.state.upstream?.request !== pending.id || flow.state.completed.length > 0)
    throw invalidCallback("the flow is not waiting for this answer", backToFlow);
  // The answer is used once, even one that fails its checks.
  delete flow.state.upstream;
  await saveFlow(deps.db, flow);
  const page = pathFor("AuthFlowGet", { id: flow.id });
  const verdict = await providerVerdict(request, upstream, pending, answer, backToFlow);
  if ("failure" in verdict) {
    const before = lastCompleted(flow.state);
    failFlow(flow);
    flow.state.providerError = { provider: upstream.key, error: verdict.failure };
    await saveFlow(deps.db, flow);
    reportAuthOutcome(request.log, flow, before, {
      methods: [upstream.key],
      failure: verdict.failure === "denied" ? "providerDenied" : "providerFailed",
    });
    return page;
  }
  try {
    await signInOrUp(deps, request, reply, flow.id, upstream, verdict.identity);
  } catch (error) {
    // Someone signed up with the same provider subject or e-mail at the same moment: once more, it now
    // finds that account.
    if (!isUniqueViolation(error)) throw error;
    await signInOrUp(deps, request, reply, flow.id, upstream, verdict.identity);
  }
  return page;
}

/** What the provider's answer says: the person it vouched for, or how it failed to sign them in. */
type ProviderVerdict = { identity: UpstreamIdentity } | { failure: UpstreamFailure };

/**
 * The verdict on the provider's answer. An error the provider answered with (an OIDC `error`, a SAML
 * status other than Success) is a failure; an answer that fails its checks is a 400 page naming the
 * check, with `page` saying where the person goes on.
 */
export async function providerVerdict(
  request: FastifyRequest,
  upstream: Upstream,
  pending: { parsedData: Record<string, unknown> },
  answer: UpstreamAnswer,
  page: PageDetails,
): Promise<ProviderVerdict> {
  const failed = (failure: UpstreamFailure, error: string) => {
    request.log.info({ provider: upstream.key, error }, "the provider answered with an error");
    return { failure };
  };
  if (answer.error !== undefined)
    return failed(answer.error === "access_denied" ? "denied" : "failed", answer.error);
  try {
    return { identity: await upstream.finish(request, pending.parsedData, answer) };
  } catch (error) {
    if (error instanceof UpstreamErrorAnswer) return failed(error.failure, error.message);
    if (!(error instanceof UpstreamRefused)) throw error;
    request.log.info({ provider: upstream.key, reason: error.message }, "the provider's answer was refused");
    const details = error.reason === undefined ? {} : { reason: error.reason };
    throw new HttpError(
      400,
      "providerAnswerInvalid",
      "the provider's answer did not pass its checks",
      details,
      page,
    );
  }
}

/** A verified e-mail of the provider's that no account has yet: the new account gets it as its own. */
async function unclaimedVerifiedEmail(deps: FlowDeps, identity: UpstreamIdentity) {
  const { email, emailVerified } = identity.profile;
  if (!emailVerified || email === undefined) return undefined;
  const normalized = normalizeIdentifier(email);
  if (typeof normalized === "string" || normalized.kind !== "email") return undefined;
  // Never merged: an account that has the address keeps it, and this one signs up without it.
  if (await findAccountIdByCredential(deps.db, "email", normalized.key)) return undefined;
  return { display: normalized.display, key: normalized.key };
}

/**
 * The provider's subject signs in to the account it is linked to, or signs up a new account: never
 * into an account found by a matching e-mail address.
 */
async function signInOrUp(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  flowId: string,
  upstream: Upstream,
  identity: UpstreamIdentity,
): Promise<void> {
  const flow = await loadFlow(deps.db, deps.provider, flowId);
  const step = newStepRequest(flow, request);
  const accountId = await findAccountIdByCredential(deps.db, upstream.key, identity.subject);
  flow.state.providers = [upstream.key];
  if (accountId !== undefined) {
    await completeAuthStep(deps, step, { accountId });
  } else {
    try {
      await reserveOrRefuse(deps, flow, [signUpBucket(step.address)], "tooManyAttempts");
    } catch (error) {
      if (!(error instanceof FlowStepError)) throw error;
      throw new TooManyRequestsError("too many sign-ups from this network", error.retryAfterSeconds ?? 60);
    }
    const email = await unclaimedVerifiedEmail(deps, identity);
    await completeAuthStep(deps, step, {
      newAccount: {
        id: newId(),
        credentials: {
          upstream: {
            provider: upstream.key,
            subject: identity.subject,
            displayName: credentialName(identity),
            claims: identity.claims,
          },
          ...(email ? { email } : {}),
        },
        identityFields: identityFromProfile(identity.profile, upstream.key, identity.subject),
      },
    });
  }
  await commitStep(deps.db, flow, step.effects);
  step.effects.applyTo(reply);
  reportAuthOutcome(request.log, flow, undefined);
}
