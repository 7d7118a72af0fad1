import { randomBytes } from "node:crypto";
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { newId } from "../ids.ts";
import type { FlowDeps } from "./deps.ts";
import { findActiveSession, insertSession, type SessionRow } from "../store/flows.ts";

// After the auth step the browser holds a session cookie for that flow only (reference §4.6). It
// proves that the person completing the flow is the one who signed in.

const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;
const valuePrefix = "vse-";

export const sessionCookieName = (flowId: string) => `__Host-session-${flowId}`;

/** The store and the key that stands for cookie secrets there, so a copy of the store holds no usable cookie. */
type SessionDeps = Pick<FlowDeps, "db" | "secrets">;

export async function startSession(
  { db, secrets }: SessionDeps,
  reply: FastifyReply,
  flowId: string,
  accountId: string,
): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  const now = Date.now();
  const id = newId();
  await insertSession(
    db,
    { id, accountId, flowId, secretHash: secrets.flowSessions(secret), expiresAt: now + sessionLifetimeMs },
    now,
  );
  reply.setCookie(sessionCookieName(flowId), valuePrefix + secret, {
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "lax",
    expires: new Date(now + sessionLifetimeMs),
  });
  return id;
}

/** The live session the request's cookie names for this flow, if any. */
export async function sessionFor(
  { db, secrets }: SessionDeps,
  request: FastifyRequest,
  flowId: string,
): Promise<SessionRow | undefined> {
  const value = request.cookies[sessionCookieName(flowId)];
  if (!value?.startsWith(valuePrefix)) return undefined;
  const session = await findActiveSession(
    db,
    secrets.flowSessions(value.slice(valuePrefix.length)),
    Date.now(),
  );
  return session?.flowId === flowId ? session : undefined;
}

export function clearSessionCookie(reply: FastifyReply, flowId: string): void {
  reply.clearCookie(sessionCookieName(flowId), { path: "/", secure: true, httpOnly: true, sameSite: "lax" });
}
