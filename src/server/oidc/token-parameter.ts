import { looksLikeJwt, type JwtAccessTokens } from "./jwt-access-tokens.ts";

/** Stands in for a JWT that is not Vrata's or no longer stands for a token: the engine finds nothing. */
const unknownToken = "unknown";

/**
 * The engine refuses JWTs at introspection and revocation. A JWT access token of Vrata's stands for an
 * opaque token, so the request's `token` parameter becomes that token before the engine reads it;
 * client authentication and every other check stay the engine's.
 */
export async function withOpaqueTokenParameter(
  parameters: URLSearchParams,
  tokens: JwtAccessTokens,
): Promise<boolean> {
  const [token, ...more] = parameters.getAll("token");
  if (token === undefined || more.length > 0 || !looksLikeJwt(token)) return false;
  parameters.set("token", (await tokens.opaqueTokenOf(token)) ?? unknownToken);
  return true;
}
