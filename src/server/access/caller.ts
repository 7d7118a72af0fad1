import type { FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import { flowIdPattern } from "../../common/ids.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { isAccountClient } from "../oidc/account-client.ts";
import { HttpError } from "../http/errors.ts";
import { requireSameOriginJson } from "../http/same-origin-writes.ts";
import { findGrantAccount } from "../store/flows.ts";
import { findFlowOfRequest, requireSession, type SessionDeps } from "./session.ts";

/**
 * Who calls a console API: an account, and the identity it is signed in with when it used the console
 * (none when it signed in to the account page, or is a flow that has no identity yet).
 */
export interface Caller {
  accountId: string;
  /** The identity of the console sign-in; absent when the caller is a flow that has no identity yet. */
  identityId?: string;
  /** The flow the call is made from (identity step), when it is one: the app it signs in to. */
  flow?: { id: string; organizationId: string; applicationId: string };
}

/** What tells who calls: the store, the engine's tokens, the issuer's origin and the console's client. */
export interface CallerDeps extends SessionDeps {
  provider: Provider;
  issuer: string;
  consoleClientId: string;
}

/** The flow a console call names, signed in from this browser; 401 otherwise. */
async function fromFlow(deps: CallerDeps, request: FastifyRequest, flowId: string): Promise<Caller> {
  // The flow's session is a cookie, which the browser sends from other pages too.
  requireSameOriginJson(request, deps.issuer);
  const row = flowIdPattern.test(flowId) ? await findFlowOfRequest(deps, request, flowId) : undefined;
  if (!row) throw new HttpError(401, "unauthorized", "no such flow");
  const state = JSON.parse(row.state) as {
    accountId?: string;
    sessionId?: string;
    secondFactor?: unknown;
    deletionDueAt?: unknown;
    completed?: string[];
  };
  const accountId = await requireSession(deps, request, {
    id: row.id,
    state,
    browserSession: row.browserSession,
  });
  // A first factor alone shows nothing of the account while the sign-in waits for (or, declined,
  // still owes) a second one; a failed sign-in shows nothing either.
  if (state.secondFactor !== undefined || state.completed?.includes("failed"))
    throw new HttpError(401, "unauthorized", "the sign-in did not prove every factor");
  // Nor while the account waits to be deleted and its person has not kept it.
  if (state.deletionDueAt !== undefined)
    throw new HttpError(401, "unauthorized", "the account is pending deletion");
  return {
    accountId,
    flow: { id: row.id, organizationId: row.organizationId, applicationId: row.applicationId },
  };
}

/** Whether the request is to one of the account's own APIs (`/account…`, under `/api` or not). */
function isAccountRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url ?? "";
  const path = url.startsWith(`${apiPrefix}/`) ? url.slice(apiPrefix.length) : url;
  const account = routes.Account.path;
  return path === account || path.startsWith(`${account}/`);
}

/**
 * Who an access token speaks for: the console's, the account and the identity it signed in with; the
 * account page's (oidc/account-client.ts), the account alone, and only at the account's own APIs.
 */
async function fromAccessToken(deps: CallerDeps, request: FastifyRequest, value: string) {
  const token = await deps.provider.AccessToken.find(value);
  if (!token || token.isExpired || !token.grantId) return undefined;
  if (token.clientId === deps.consoleClientId) return findGrantAccount(deps.db, token.grantId);
  if (token.accountId && isAccountRoute(request) && (await isAccountClient(deps.db, token.clientId)))
    return { accountId: token.accountId };
  return undefined;
}

/**
 * The caller of a console API: during an auth flow the flow's session cookie with `?flow=<id>`, else
 * a console access token (`Authorization: Bearer`). Throws 401 when neither proves anybody.
 */
export async function requireCaller(deps: CallerDeps, request: FastifyRequest): Promise<Caller> {
  // A call made from a flow acts for the flow's account, whatever console token the browser also has.
  const flowId = (request.query as { flow?: unknown }).flow;
  if (typeof flowId === "string" && flowId.length > 0) return fromFlow(deps, request, flowId);
  const authorization = request.headers.authorization;
  if (authorization?.startsWith("Bearer ")) {
    const grant = await fromAccessToken(deps, request, authorization.slice(7).trim());
    if (!grant) throw new HttpError(401, "unauthorized", "the access token is not valid");
    return { accountId: grant.accountId, ...("identityId" in grant ? { identityId: grant.identityId } : {}) };
  }
  throw new HttpError(401, "unauthorized", "sign in first");
}

/**
 * A caller at the console, never an auth flow: a flow's session proves a sign-in that is still under
 * way, not a person managing their account.
 */
export async function requireConsoleCaller(deps: CallerDeps, request: FastifyRequest): Promise<Caller> {
  if ((request.query as { flow?: unknown }).flow !== undefined)
    throw new HttpError(403, "consoleOnly", "this is managed from the console only");
  return requireCaller(deps, request);
}

/** The caller when the request proves one, else undefined (public views that show more to admins). */
export async function optionalCaller(deps: CallerDeps, request: FastifyRequest): Promise<Caller | undefined> {
  if (!request.headers.authorization && (request.query as { flow?: unknown }).flow === undefined)
    return undefined;
  return requireCaller(deps, request);
}
