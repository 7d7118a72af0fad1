import type { Client, KoaContextWithOIDC } from "oidc-provider";
import { ownerOf } from "./client-extras.ts";

type Token = { clientId?: string | undefined };

/**
 * Who may introspect a token: the client it was issued to, or a confidential client of the same
 * organization (an app's API checking the tokens of the app's front end). Organizations never see
 * each other's tokens.
 */
export async function mayIntrospect(ctx: KoaContextWithOIDC, caller: Client, token: Token): Promise<boolean> {
  if (token.clientId === caller.clientId) return true;
  if (caller.clientAuthMethod === "none" || token.clientId === undefined) return false;
  const issuedTo = await ctx.oidc.provider.Client.find(token.clientId);
  return issuedTo !== undefined && ownerOf(issuedTo).organizationId === ownerOf(caller).organizationId;
}

/** Only the client a token was issued to may revoke it; for any other the request changes nothing. */
export function mayRevoke(_ctx: KoaContextWithOIDC, caller: Client, token: Token): boolean {
  return token.clientId === caller.clientId;
}
