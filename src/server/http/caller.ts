import type { FastifyRequest } from "fastify";
import type { DocumentSummary } from "../../common/api/summary.ts";
import type Provider from "oidc-provider";
import { loadFlow, type Flow } from "../flow/flows.ts";
import { requireSession } from "../flow/outcome.ts";
import type { FlowDeps } from "../flow/deps.ts";
import { findGrantAccount } from "../store/flows.ts";
import { HttpError } from "./errors.ts";
import { requireSameOriginJson } from "./same-origin-writes.ts";

/** Who calls a console API: an account, and the identity it is signed in with when it used the console. */
export interface Caller {
  accountId: string;
  /** The identity of the console sign-in; absent when the caller is a flow that has no identity yet. */
  identityId?: string;
  /** The flow the call is made from (identity step), when it is one. */
  flow?: Flow;
}

export interface CallerDeps extends FlowDeps {
  consoleClientId: string;
}

async function fromAccessToken(
  provider: Provider,
  db: FlowDeps["db"],
  consoleClientId: string,
  value: string,
) {
  const token = await provider.AccessToken.find(value);
  if (!token || token.isExpired || token.clientId !== consoleClientId || !token.grantId) return undefined;
  return findGrantAccount(db, token.grantId);
}

/**
 * The caller of a console API: during an auth flow the flow's session cookie with `?flow=<id>`, else
 * a console access token (`Authorization: Bearer`). Throws 401 when neither proves anybody.
 */
export async function requireCaller(deps: CallerDeps, request: FastifyRequest): Promise<Caller> {
  // A call made from a flow acts for the flow's account, whatever console token the browser also has.
  const flowId = (request.query as { flow?: unknown }).flow;
  if (typeof flowId === "string" && flowId.length > 0) {
    // The flow's session is a cookie, which the browser sends from other pages too.
    requireSameOriginJson(request, deps.issuer);
    const flow = await loadFlow(deps.db, deps.provider, flowId).catch(() => undefined);
    if (!flow) throw new HttpError(401, "unauthorized", "no such flow");
    return { accountId: await requireSession(deps, request, flow), flow };
  }
  const authorization = request.headers.authorization;
  if (authorization?.startsWith("Bearer ")) {
    const grant = await fromAccessToken(
      deps.provider,
      deps.db,
      deps.consoleClientId,
      authorization.slice(7).trim(),
    );
    if (!grant) throw new HttpError(401, "unauthorized", "the access token is not valid");
    return { accountId: grant.accountId, identityId: grant.identityId };
  }
  throw new HttpError(401, "unauthorized", "sign in first");
}

/** Whether the caller's console identity is one of a document's admins. */
export function isAdmin(caller: Caller | undefined, admins: readonly string[]): boolean {
  return caller?.identityId !== undefined && admins.includes(caller.identityId);
}

/** Listed templates or organizations as everybody sees them, marking those the caller administers. */
export function summaries(
  listed: readonly { id: string; document: { name: string; description: string; admins: string[] } }[],
  caller: Caller | undefined,
): DocumentSummary[] {
  return listed.map(({ id, document }) => ({
    id,
    name: document.name,
    description: document.description,
    canUpdate: isAdmin(caller, document.admins),
  }));
}

/** The caller when the request proves one, else undefined (public views that show more to admins). */
export async function optionalCaller(deps: CallerDeps, request: FastifyRequest): Promise<Caller | undefined> {
  if (!request.headers.authorization && (request.query as { flow?: unknown }).flow === undefined)
    return undefined;
  return requireCaller(deps, request);
}
