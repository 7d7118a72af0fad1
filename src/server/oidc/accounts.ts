import type { Account, FindAccount } from "oidc-provider";
import type { Database } from "../store/database.ts";
import { credentialsOf } from "../store/accounts.ts";
import { findIdentity, findMembershipById } from "../store/identities.ts";
import { ownerOf } from "./client-extras.ts";
import { findGrantAccount } from "../store/flows.ts";

/**
 * oidc-provider's "account" is an identity as one organization sees it: its ID is the
 * organization-scoped identity ID, which becomes `sub`. It is found only for clients of that
 * organization and while the identity is active there.
 */
export function findAccountFor(db: Database): FindAccount {
  return async (ctx, id, token) => {
    const membership = await findMembershipById(db, id);
    if (!membership?.active) return undefined;
    const client = ctx.oidc.client;
    if (client && ownerOf(client).organizationId !== membership.organizationId) return undefined;
    const identity = await findIdentity(db, membership.identityId);
    if (!identity) return undefined;
    const grantId = token && "grantId" in token ? token.grantId : undefined;
    const signedInAccount = grantId ? (await findGrantAccount(db, grantId))?.accountId : undefined;

    const account: Account = {
      accountId: id,
      claims: async () => {
        const { username, email, givenName, fullName, pictureUrl } = identity.document;
        // An e-mail address is verified only when the signed-in account proved it with a code.
        const verifiedEmails = signedInAccount
          ? (await credentialsOf(db, signedInAccount, "email")).map((credential) => credential.providerId)
          : [];
        return {
          sub: id,
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
