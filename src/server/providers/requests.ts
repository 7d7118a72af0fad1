import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { upstreamRequestLifetimeMs } from "../../common/limits.ts";
import { HttpError, type PageDetails } from "../http/errors.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import type { Database } from "../store/database.ts";
import {
  insertUpstreamRequest,
  takeUpstreamRequest,
  type UpstreamRequest,
} from "../store/upstream-requests.ts";
import { UpstreamUnavailable, type Upstream } from "./upstream.ts";

// A sign-in at a provider is answered once, by the browser that started it. The state sent to the
// provider is random (never the flow's ID) and is kept only as a keyed hash; a cookie named after it
// ties it to the browser, so an answer carried into another browser (a link sent to someone) is
// refused, and an answer that comes back twice finds its request gone.

export interface RequestDeps {
  db: Database;
  secrets: InstanceSecrets;
}

const cookiePrefix = "__Host-upstream-";
/** The cookie of a request is named after the start of its state, so requests in other tabs keep theirs. */
const cookieName = (state: string) => cookiePrefix + state.slice(0, 12);

/**
 * The provider's answer was not for a request of this browser, or came back again; its page names the
 * provider and, when the answer is for a sign-in still going on, leads back to it.
 */
export const invalidCallback = (reason: string, page: PageDetails) =>
  new HttpError(400, "providerCallbackInvalid", reason, {}, page);

export interface StartedRequest {
  location: string;
  /** The request's ID in the store: the flow remembers it as the one it waits for. */
  requestId: string;
  /** Stores the request (with the caller's other writes). */
  store: (db: Database) => Promise<void>;
  /** Gives the browser the cookie that ties the request to it. */
  setCookie: (reply: FastifyReply) => void;
}

/** A new request to the provider for a flow or an account: where to send the browser, and what to keep. */
export async function startUpstreamRequest(
  { secrets }: RequestDeps,
  upstream: Upstream,
  target: { flowId: string } | { accountId: string },
): Promise<StartedRequest> {
  const state = randomBytes(32).toString("base64url");
  const browserKey = randomBytes(32).toString("base64url");
  let started;
  try {
    started = await upstream.start(state);
  } catch (error) {
    if (error instanceof UpstreamUnavailable)
      throw new HttpError(503, "providerUnavailable", `${upstream.key} cannot be reached now`);
    throw error;
  }
  const now = Date.now();
  const request: UpstreamRequest = {
    id: secrets.upstreamStates(state),
    provider: upstream.key,
    flowId: "flowId" in target ? target.flowId : null,
    accountId: "accountId" in target ? target.accountId : null,
    browserHash: secrets.upstreamStates(browserKey),
    data: JSON.stringify(started.data),
    createdAt: now,
    expiresAt: now + upstreamRequestLifetimeMs,
  };
  return {
    location: started.location,
    requestId: request.id,
    store: (db) => insertUpstreamRequest(db, request),
    setCookie: (reply) => {
      reply.setCookie(cookieName(state), browserKey, {
        path: "/",
        secure: true,
        httpOnly: true,
        // SAML answers arrive as a cross-site POST, which carries only cookies marked for it.
        sameSite: upstream.type === "saml" ? "none" : "lax",
        maxAge: upstreamRequestLifetimeMs / 1000,
      });
    },
  };
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The request the provider's answer belongs to, taken out of the store: each is answered once. Any
 * answer that is not for a live request of this provider from this browser is refused.
 */
export async function takeUpstreamAnswer(
  { db, secrets }: RequestDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: Upstream,
  state: string | undefined,
): Promise<UpstreamRequest & { parsedData: Record<string, unknown> }> {
  // Until the answer is known to be this browser's, its page says nothing of the sign-in it names.
  const page = { provider: upstream.key };
  if (!state || state.length > 200) throw invalidCallback("the answer carries no state of ours", page);
  const browserKey = request.cookies[cookieName(state)];
  reply.clearCookie(cookieName(state), { path: "/", secure: true, httpOnly: true });
  const taken = await takeUpstreamRequest(db, secrets.upstreamStates(state), Date.now());
  if (!taken || taken.provider !== upstream.key)
    throw invalidCallback("no sign-in with this provider is waiting for this answer", page);
  if (!browserKey || !sameHash(secrets.upstreamStates(browserKey), taken.browserHash))
    throw invalidCallback("the answer came to another browser than the one that started the sign-in", page);
  return { ...taken, parsedData: JSON.parse(taken.data) as Record<string, unknown> };
}
