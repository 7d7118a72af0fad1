import type { Account, FindAccount } from "oidc-provider";
import type { Database } from "../store/database.ts";
import { emailsOfGrantAccount } from "../store/accounts.ts";
import { findTokenSubject } from "../store/token-subjects.ts";
import { ownerOf } from "./client-extras.ts";

/**
 * oidc-provider's "account" is an identity as one organization sees it: its ID is the
 * organization-scoped identity ID, which becomes `sub`. It is found only for clients of that
 * organization and while the identity is active and not blocked there: a block refuses the tokens of
 * the identity (and of the accounts it covers) at once, whatever a revocation may have missed.
 */
export function findAccountFor(db: Database): FindAccount {
  return async (ctx, id, token) => {
    const grantId = token && "grantId" in token ? token.grantId : undefined;
    const identity = await findTokenSubject(db, id, grantId);
    if (!identity?.active || identity.blocked) return undefined;
    const client = ctx.oidc.client;
    if (client && ownerOf(client).organizationId !== identity.organizationId) return undefined;

    const account: Account = {
      accountId: id,
      claims: async (use) => {
        const { username, email, givenName, fullName, pictureUrl } = identity.document;
        // An e-mail address is verified only when the signed-in account proved it with a code.
        const verifiedEmails = email && grantId ? await emailsOfGrantAccount(db, grantId) : [];
        return {
          sub: id,
          ...(use === "id_token" && client ? { azp: client.clientId } : {}),
          ...(username ? { preferred_username: username } : {}),
          ...(givenName ? { given_name: givenName } : {}),
          ...(fullName ? { name: fullName } : {}),
          ...(pictureUrl ? { picture: pictureUrl } : {}),
          ...(email ? { email, email_verified: verifiedEmails.includes(email.toLowerCase()) } : {}),
        };
      },
    };
    return account;
  };
}
