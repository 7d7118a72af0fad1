import type { FastifyReply, FastifyRequest } from "fastify";
import type { ProviderLinkStatus } from "../../common/api/account.ts";
import { pathFor } from "../../common/routes.ts";
import { recordActivity } from "../activity/activity.ts";
import { providerVerdict, upstreamOf } from "../flow/provider.ts";
import { newId } from "../ids.ts";
import { credentialName } from "../providers/profile.ts";
import { startUpstreamRequest, type RequestDeps } from "../providers/requests.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import type { UpstreamAnswer, Upstream } from "../providers/upstream.ts";
import { findCredential, insertCredential, type StoredCredential } from "../store/accounts.ts";
import { accountView, removeSignInMethod } from "./account-passkeys.ts";
import { isUniqueViolation } from "../store/errors.ts";
import type { UpstreamRequest } from "../store/upstream-requests.ts";
import { upstreamCredentialRow } from "./accounts.ts";

// Linking a third-party provider to a signed-in account: the person completes the provider's sign-in,
// and its subject becomes one more way to sign in to this account. A subject already linked to
// another account stays there: accounts are never merged.

export interface ProviderLinkDeps extends RequestDeps {
  providers: ProviderRegistry;
}

/** Starts the provider's sign-in for linking it; the answer says where to send the browser. */
export async function startProviderLink(
  deps: ProviderLinkDeps,
  reply: FastifyReply,
  accountId: string,
  key: string,
): Promise<{ location: string }> {
  const started = await startUpstreamRequest(deps, upstreamOf(deps, key), { accountId });
  await started.store(deps.db);
  started.setCookie(reply);
  return { location: started.location };
}

/** Where the account page shows how linking the provider went. */
const accountPage = (key: string, status: ProviderLinkStatus) =>
  `${pathFor("Account")}?${new URLSearchParams({ provider: key, link: status }).toString()}`;

/** The provider answered a link request: links its subject to the account unless another account has it. */
export async function providerLinkAnswer(
  deps: ProviderLinkDeps,
  request: FastifyRequest,
  upstream: Upstream,
  pending: UpstreamRequest & { parsedData: Record<string, unknown> },
  answer: UpstreamAnswer,
): Promise<string> {
  const accountId = pending.accountId ?? "";
  const verdict = await providerVerdict(request, upstream, pending, answer, {
    provider: upstream.key,
    resume: "account",
  });
  if ("failure" in verdict) return accountPage(upstream.key, verdict.failure);
  const { identity } = verdict;
  const existing = await findCredential(deps.db, upstream.key, identity.subject);
  if (existing) return accountPage(upstream.key, existing.accountId === accountId ? "linked" : "taken");
  const id = newId();
  const credential = {
    provider: upstream.key,
    subject: identity.subject,
    displayName: credentialName(identity),
    claims: identity.claims,
  };
  try {
    await insertCredential(deps.db, upstreamCredentialRow(id, accountId, credential), Date.now());
  } catch (error) {
    if (isUniqueViolation(error)) return accountPage(upstream.key, "taken");
    throw error;
  }
  await recordActivity(deps.db, accountId, {
    type: "credentialAdd",
    providers: [upstream.key],
    credential: { id, name: credential.displayName },
  });
  return accountPage(upstream.key, "linked");
}

/**
 * Unlinks a provider (removes its credential) unless it is the account's last way to sign in
 * (409 `lastSignInMethod`); 404 for a credential of another account or another kind.
 */
export async function unlinkProvider(deps: RequestDeps, accountId: string, credential: StoredCredential) {
  await removeSignInMethod(deps.db, accountId, credential);
  return accountView(deps.db, accountId);
}
