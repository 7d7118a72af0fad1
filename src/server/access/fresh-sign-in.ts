import type { FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import { freshSignInMaxAgeMs } from "../../common/limits.ts";
import { HttpError } from "../http/errors.ts";

/**
 * What changes how an account signs in or whether it exists (a first password, deleting it) needs more
 * than a sign-in that may be days old: the browser's single sign-on session must be this account's
 * and must have signed in within `freshSignInMaxAgeMs`. Otherwise 403 `freshSignInRequired`, which the
 * page answers by having the person sign in again (prompt=login) and then retry.
 */
export async function requireFreshSignIn(
  deps: { provider: Provider },
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  now = Date.now(),
): Promise<void> {
  const session = await deps.provider.Session.get(deps.provider.createContext(request.raw, reply.raw));
  const signedInAt = typeof session.loginTs === "number" ? session.loginTs * 1000 : 0;
  if (session.accountId !== accountId || now - signedInAt > freshSignInMaxAgeMs)
    throw new HttpError(403, "freshSignInRequired", "sign in again to do this");
}
