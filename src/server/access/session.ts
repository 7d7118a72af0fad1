import { randomBytes } from "node:crypto";
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { HttpError } from "../http/errors.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import {
  findActiveSession,
  findFlow,
  findFlowWithSession,
  insertSession,
  type FlowRow,
  type SessionRow,
} from "../store/flows.ts";

// After the auth step the browser holds a session cookie for that flow only (reference §4.6). It
// proves that the person completing the flow is the one who signed in.

const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;
const valuePrefix = "vse-";

export const sessionCookieName = (flowId: string) => `__Host-session-${flowId}`;

/** The store and the key that stands for cookie secrets there, so a copy of the store holds no usable cookie. */
export interface SessionDeps {
  db: Database;
  secrets: InstanceSecrets;
}

/**
 * A new session of the account for this flow: its row to store, and the cookie that proves it once
 * stored. Only the secret's hash is stored.
 */
export function newSession(
  { secrets }: Pick<SessionDeps, "secrets">,
  flowId: string,
  accountId: string,
  now: number,
) {
  const secret = randomBytes(32).toString("base64url");
  const expiresAt = now + sessionLifetimeMs;
  const row = { id: newId(), accountId, flowId, secretHash: secrets.flowSessions(secret), expiresAt };
  return {
    id: row.id,
    store: (db: Database) => insertSession(db, row, now),
    setCookie: (reply: FastifyReply): void => {
      reply.setCookie(sessionCookieName(flowId), valuePrefix + secret, {
        path: "/",
        secure: true,
        httpOnly: true,
        sameSite: "lax",
        expires: new Date(expiresAt),
      });
    },
  };
}

/** The hash of the flow's session secret in the request's cookie, if it holds one. */
function sessionSecretHash({ secrets }: SessionDeps, request: FastifyRequest, flowId: string) {
  const value = request.cookies[sessionCookieName(flowId)];
  return value?.startsWith(valuePrefix) ? secrets.flowSessions(value.slice(valuePrefix.length)) : undefined;
}

/** The live session the request's cookie names for this flow, if any. */
export async function sessionFor(
  deps: SessionDeps,
  request: FastifyRequest,
  flowId: string,
): Promise<SessionRow | undefined> {
  const secretHash = sessionSecretHash(deps, request, flowId);
  if (secretHash === undefined) return undefined;
  const session = await findActiveSession(deps.db, secretHash, Date.now());
  return session?.flowId === flowId ? session : undefined;
}

/**
 * The flow's row, with the live session the request's cookie names for it read in the same query
 * (`null` when there is none): requireSession then asks the store nothing more.
 */
export async function findFlowOfRequest(
  deps: SessionDeps,
  request: FastifyRequest,
  flowId: string,
): Promise<(FlowRow & { browserSession: SessionRow | null }) | undefined> {
  const now = Date.now();
  const secretHash = sessionSecretHash(deps, request, flowId);
  if (secretHash === undefined) {
    const flow = await findFlow(deps.db, flowId, now);
    return flow && { ...flow, browserSession: null };
  }
  const found = await findFlowWithSession(deps.db, flowId, secretHash, now);
  return found && { ...found.flow, browserSession: found.session ?? null };
}

/** The flows whose session cookie the browser sends, and the live session each names (if any). */
export async function browserFlowSessions(
  deps: SessionDeps,
  request: FastifyRequest,
): Promise<{ flowIds: string[]; sessions: SessionRow[] }> {
  const flowIds = Object.keys(request.cookies)
    .filter((name) => name.startsWith(sessionCookieName("")))
    .map((name) => name.slice(sessionCookieName("").length));
  const found = await Promise.all(flowIds.map((flowId) => sessionFor(deps, request, flowId)));
  return { flowIds, sessions: found.flatMap((session) => (session ? [session] : [])) };
}

export function clearSessionCookie(reply: FastifyReply, flowId: string): void {
  reply.clearCookie(sessionCookieName(flowId), { path: "/", secure: true, httpOnly: true, sameSite: "lax" });
}

/** A flow as far as its session goes: the account that signed in on it and the session that proves it. */
export interface SessionOfFlow {
  id: string;
  state: { accountId?: string | undefined; sessionId?: string | undefined };
  /** The live session the request's cookie names, when it was read with the flow (findFlowOfRequest). */
  browserSession?: SessionRow | null;
}

/** The flow's account, when this browser holds the flow's session; 401 for any other browser. */
export async function requireSession(
  deps: SessionDeps,
  request: FastifyRequest,
  flow: SessionOfFlow,
): Promise<string> {
  const { accountId, sessionId } = flow.state;
  if (!accountId || !sessionId) throw new HttpError(400, "badRequest", "sign in or sign up first");
  const session =
    flow.browserSession === undefined
      ? await sessionFor(deps, request, flow.id)
      : (flow.browserSession ?? undefined);
  if (session?.id !== sessionId || session.accountId !== accountId) {
    throw new HttpError(401, "unauthorized", "this flow was signed in from another browser");
  }
  return accountId;
}

/** Reading the flow or sending the person back needs the session only once the flow has one. */
export async function requireSessionIfAny(
  deps: SessionDeps,
  request: FastifyRequest,
  flow: SessionOfFlow,
): Promise<void> {
  if (flow.state.sessionId) await requireSession(deps, request, flow);
}
