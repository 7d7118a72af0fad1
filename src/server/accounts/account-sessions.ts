import type { FastifyReply, FastifyRequest } from "fastify";
import type { KoaContextWithOIDC } from "oidc-provider";
import type Provider from "oidc-provider";
import type { AccountSessions } from "../../common/api/account-sessions.ts";
import { recordActivity } from "../activity/activity.ts";
import { HttpError } from "../http/errors.ts";
import type { BackchannelLogouts, EndedSession } from "../oidc/backchannel-logout.ts";
import { browserFlowSessions, type SessionDeps } from "../access/session.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import type { Database } from "../store/database.ts";
import { deactivateSessionsOfAccount } from "../store/flows.ts";
import { sessionsWithKeysOf, takeOidcModel } from "../store/oidc-models.ts";
import {
  deleteSessionDevices,
  findSessionKey,
  liveSessionDevices,
  recordSessionDevice,
} from "../store/session-devices.ts";
import { deviceOf } from "./user-agent.ts";

// The browsers where the account is signed in: each single sign-on session, noted with its browser's
// user agent whenever it signs the person in to an app, listed on the account page and ended there.

export interface AccountSessionDeps {
  db: Database;
  provider: Provider;
  secrets: Pick<InstanceSecrets, "tokenIds">;
  logouts: BackchannelLogouts;
}

/** The longest user agent kept: enough for every real browser's, not a place to store anything. */
const userAgentMaxLength = 512;

/**
 * Notes the browser of every answer of the engine that went with a signed-in single sign-on session
 * (an app signed in to, at once or after the sign-in page), after the engine stored the session.
 */
export function noteSessionDevices(
  provider: Provider,
  deps: Pick<AccountSessionDeps, "db" | "secrets">,
  log: { warn: (details: object, message: string) => void },
): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    if (oidc?.route !== "authorization" && oidc?.route !== "resume") return;
    const session = oidc.session;
    if (!session?.accountId || !session.jti) return;
    const device = {
      sessionKey: deps.secrets.tokenIds(session.jti),
      accountId: session.accountId,
      userAgent: (ctx.get("user-agent") || "").slice(0, userAgentMaxLength),
    };
    // The person's sign-in goes on whatever became of the note.
    await recordSessionDevice(deps.db, device, Date.now()).catch((error: unknown) =>
      log.warn({ err: error }, "the browser of a session could not be noted"),
    );
  });
}

/** What of the account the calling browser holds: its single sign-on session, and its flows' sessions. */
export interface CallingBrowser {
  /** The key of its single sign-on session, when it has one of the account. */
  sessionKey: string | undefined;
  /** The sessions of the sign-ins under way in it (access/session.ts), which ending others keeps. */
  flowSessionIds: string[];
}

/** The single sign-on session and flow sessions of the browser that calls, as far as they are the account's. */
export async function callingBrowser(
  deps: AccountSessionDeps & SessionDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
): Promise<CallingBrowser> {
  const session = await deps.provider.Session.get(deps.provider.createContext(request.raw, reply.raw));
  const { sessions } = await browserFlowSessions(deps, request);
  return {
    sessionKey: session.accountId === accountId ? deps.secrets.tokenIds(session.jti) : undefined,
    flowSessionIds: sessions.filter((flow) => flow.accountId === accountId).map((flow) => flow.id),
  };
}

const iso = (time: number) => new Date(time).toISOString();
const sessionOfPayload = (payload: string) => JSON.parse(payload) as EndedSession;

/** Every browser where the account is signed in, most recently used first; the calling one marked. */
export async function listSessions(
  db: Database,
  accountId: string,
  currentKey: string | undefined,
): Promise<AccountSessions> {
  const devices = await liveSessionDevices(db, accountId, Date.now());
  return {
    sessions: devices
      // A session another person's sign-in took over in the same browser is no longer this account's.
      .filter((device) => sessionOfPayload(device.payload).accountId === accountId)
      .map((device) => ({
        id: device.id,
        ...deviceOf(device.userAgent),
        signedInAt: iso(device.signedInAt),
        lastActiveAt: iso(device.lastActiveAt),
        current: device.sessionKey === currentKey,
      })),
  };
}

/** The grants a session holds for its apps. */
const grantsOfSession = (session: EndedSession) =>
  Object.values(session.authorizations ?? {}).flatMap(({ grantId }) => (grantId ? [grantId] : []));

/**
 * Ends these sessions of the account at once: they are removed from the store (every instance reads
 * sessions from there), the grants they alone held are revoked with every code and token they issued,
 * and their apps are told by back-channel logout. A sign-in under way in another browser (a flow that
 * proved the account, which may not know which browser it is in) ends too: it could otherwise still
 * act for the account and sign it in again. Returns how many were still live.
 */
async function endSessions(
  deps: AccountSessionDeps,
  accountId: string,
  keys: readonly string[],
  caller: CallingBrowser,
) {
  await deactivateSessionsOfAccount(deps.db, accountId, caller.flowSessionIds);
  const ended: EndedSession[] = [];
  for (const key of keys) {
    // Only the request that removed it goes on: a session ended twice at once is ended once.
    const payload = await takeOidcModel(deps.db, "Session", key);
    if (payload !== undefined) ended.push(sessionOfPayload(payload));
  }
  await deleteSessionDevices(deps.db, keys);
  const stillHeld = new Set(
    (await sessionsWithKeysOf(deps.db, accountId)).flatMap(({ payload }) =>
      grantsOfSession(sessionOfPayload(payload)),
    ),
  );
  for (const grantId of new Set(ended.flatMap(grantsOfSession))) {
    if (stillHeld.has(grantId)) continue;
    await deps.provider.Grant.adapter.revokeByGrantId(grantId);
    await deps.provider.Grant.adapter.destroy(grantId);
  }
  await Promise.all(ended.map((session) => deps.logouts.announce(session)));
  if (ended.length > 0) await recordActivity(deps.db, accountId, { type: "sessionEnd" });
  return ended.length;
}

/** Signs the account out of the browser the account page names `id`. */
export async function endSession(
  deps: AccountSessionDeps,
  accountId: string,
  id: string,
  caller: CallingBrowser,
): Promise<AccountSessions> {
  const key = await findSessionKey(deps.db, accountId, id);
  if (key === undefined || (await endSessions(deps, accountId, [key], caller)) === 0)
    throw new HttpError(404, "sessionNotFound", "no such session, or it has ended already");
  return listSessions(deps.db, accountId, caller.sessionKey);
}

/**
 * Signs the account out everywhere but in the calling browser: every session of the account, listed
 * or not (made before browsers were noted), ends.
 */
export async function endOtherSessions(
  deps: AccountSessionDeps,
  accountId: string,
  caller: CallingBrowser,
): Promise<AccountSessions> {
  const others = (await sessionsWithKeysOf(deps.db, accountId))
    .filter(
      ({ key, payload }) => key !== caller.sessionKey && sessionOfPayload(payload).accountId === accountId,
    )
    .map(({ key }) => key);
  await endSessions(deps, accountId, others, caller);
  return listSessions(deps.db, accountId, caller.sessionKey);
}
