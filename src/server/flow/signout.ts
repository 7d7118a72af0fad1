import type { FastifyReply, FastifyRequest } from "fastify";
import { recordActivity } from "../activity/activity.ts";
import { ssoCookieOptions, ssoSessionCookie } from "../oidc/provider.ts";
import { findActiveClient } from "../store/clients.ts";
import { deactivateSessions, findGrantAccount } from "../store/flows.ts";
import { takeOidcModel } from "../store/oidc-models.ts";
import type { FlowDeps } from "./deps.ts";
import { sameSitePath } from "./location.ts";
import { browserFlowSessions, clearSessionCookie } from "../access/session.ts";

/** The account's entry of signing out: the identity it was signed in with, and the app it left. */
async function recordSignOut(
  deps: FlowDeps,
  grant: { accountId: string; identityId: string },
  clientId: string | undefined,
): Promise<void> {
  const client = clientId === undefined ? undefined : await findActiveClient(deps.db, clientId);
  await recordActivity(deps.db, grant.accountId, {
    type: "signOut",
    identities: [{ id: grant.identityId }],
    ...(client && {
      organizations: [{ id: client.organizationId }],
      applications: [{ organizationId: client.organizationId, applicationId: client.applicationId }],
    }),
  });
}

/**
 * Removes the engine's grant or session of this ID; false when another request removed it meanwhile:
 * of sign-outs sent at the same moment, only the one that ended it records it or tells its apps.
 */
async function removed(deps: FlowDeps, model: "Grant" | "Session", id: string): Promise<boolean> {
  return (await takeOidcModel(deps.db, model, deps.secrets.tokenIds(id))) !== undefined;
}

/**
 * Signs the browser out: the console's access token is revoked with everything its grant issued, the
 * single sign-on session ends, and every flow session cookie is cleared.
 */
export async function signOut(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  location: string | undefined,
): Promise<{ location: string }> {
  // Only a path on this site: signing out must never send the browser elsewhere.
  const target = location === undefined ? "/" : sameSitePath(location, deps.issuer);
  const authorization = request.headers.authorization;
  if (authorization?.startsWith("Bearer ")) {
    const token = await deps.provider.AccessToken.find(authorization.slice(7).trim());
    if (token?.grantId) {
      const grant = await findGrantAccount(deps.db, token.grantId);
      await deps.provider.AccessToken.adapter.revokeByGrantId(token.grantId);
      if ((await removed(deps, "Grant", token.grantId)) && grant)
        await recordSignOut(deps, grant, token.clientId);
    }
  }

  const engineContext = deps.provider.createContext(request.raw, reply.raw);
  const ssoSession = await deps.provider.Session.get(engineContext);
  if (ssoSession.accountId && (await removed(deps, "Session", ssoSession.jti))) {
    await deps.logouts.announce(ssoSession);
  }
  for (const name of [ssoSessionCookie, `${ssoSessionCookie}.sig`]) {
    if (request.cookies[name] !== undefined) reply.clearCookie(name, ssoCookieOptions);
  }

  const { flowIds, sessions } = await browserFlowSessions(deps, request);
  await deactivateSessions(
    deps.db,
    sessions.map((session) => session.id),
  );
  for (const flowId of flowIds) clearSessionCookie(reply, flowId);
  return { location: target };
}
