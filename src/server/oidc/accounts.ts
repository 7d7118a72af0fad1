import type { Account, Client, FindAccount, KoaContextWithOIDC } from "oidc-provider";
import type { Database } from "../store/database.ts";
import { emailsOfAccount, emailsOfGrantAccount } from "../store/accounts.ts";
import { findApplicationChoice } from "../store/application-choices.ts";
import { findMembershipById } from "../store/identities.ts";
import { findChosenSubject, findMembershipSubject, type TokenSubject } from "../store/token-subjects.ts";
import { ownerOf } from "./client-extras.ts";

// The engine's account is the person: the single sign-on session, grants and tokens belong to the
// account, so that one sign-in serves the apps of every organization (design.md §5). What an app sees
// is the identity the person chose for it, as the app's organization knows it: the engine treats that
// as a pairwise subject, so `sub` differs per organization and no organization can correlate people.
// Sessions, grants and tokens of earlier versions name the membership itself; they still work.

/** The person as one app sees them: the identity chosen for it, and the scopes agreed to with it. */
export interface AppAccount extends Account {
  /** The organization-scoped identity ID: the app's `sub`. */
  membershipId: string;
  identityId: string;
  /** The scopes the person agreed to give the app with this identity (absent for earlier grants). */
  agreedScopes?: readonly string[] | undefined;
}

/** Whose proof of an e-mail address counts: the signed-in account, or for earlier grants the grant's. */
type EmailProof = { accountId: string } | { grantId: string } | undefined;

async function subjectOf(db: Database, id: string, client: Client, grantId: string | undefined) {
  const { organizationId, applicationId } = ownerOf(client);
  const chosen = await findChosenSubject(db, id, applicationId);
  const subject = chosen ?? (await findMembershipSubject(db, id, grantId));
  if (!subject?.active || subject.blocked || subject.organizationId !== organizationId) return undefined;
  const proof: EmailProof = chosen ? { accountId: id } : grantId ? { grantId } : undefined;
  return { subject, agreedScopes: chosen?.scopes, proof };
}

/**
 * The account as the client's app sees it: found only while the identity chosen for the app is active
 * and not blocked in its organization. A block refuses the tokens of the identity (and of the accounts
 * it covers) at once, whatever a revocation may have missed. Unknown when the person has not chosen an
 * identity for the app yet: the engine then asks (oidc/interaction-policy.ts).
 */
export function findAccountFor(db: Database): FindAccount {
  return async (ctx, id, token) => {
    const client = ctx.oidc.client;
    if (!client) return undefined;
    const found = await subjectOf(db, id, client, token && "grantId" in token ? token.grantId : undefined);
    if (!found) return undefined;
    const { subject, agreedScopes, proof } = found;
    const account: AppAccount = {
      accountId: id,
      membershipId: subject.membershipId,
      identityId: subject.identityId,
      agreedScopes,
      claims: async (use) => ({
        sub: subject.membershipId,
        ...(use === "id_token" ? { azp: client.clientId } : {}),
        ...(await identityClaims(db, subject, proof)),
      }),
    };
    return account;
  };
}

/** The identity's profile and e-mail claims. */
async function identityClaims(db: Database, subject: TokenSubject, proof: EmailProof) {
  const { username, email, givenName, fullName, pictureUrl } = subject.document;
  // An e-mail address is verified only when the signed-in account proved it with a code.
  const verified =
    !email || !proof
      ? []
      : "accountId" in proof
        ? await emailsOfAccount(db, proof.accountId)
        : await emailsOfGrantAccount(db, proof.grantId);
  return {
    ...(username ? { preferred_username: username } : {}),
    ...(givenName ? { given_name: givenName } : {}),
    ...(fullName ? { name: fullName } : {}),
    ...(pictureUrl ? { picture: pictureUrl } : {}),
    ...(email ? { email, email_verified: verified.includes(email.toLowerCase()) } : {}),
  };
}

/**
 * The engine's pairwise subject: the ID of the identity the person chose for the client's app, in the
 * app's organization. The account found for this request already knows it; logout tokens and
 * introspection by another client ask the store.
 */
export function appSubjectFor(db: Database) {
  return async (ctx: KoaContextWithOIDC | undefined, accountId: string, client: Client): Promise<string> => {
    const account = ctx?.oidc.account as AppAccount | undefined;
    if (account?.accountId === accountId && ctx?.oidc.client?.clientId === client.clientId)
      return account.membershipId;
    const { organizationId, applicationId } = ownerOf(client);
    const choice = await findApplicationChoice(db, accountId, applicationId);
    if (choice) return choice.membershipId;
    // An earlier version's session or token: its account is the membership itself.
    const membership = await findMembershipById(db, accountId);
    if (membership?.organizationId === organizationId) return accountId;
    throw new Error("no identity was chosen for this app");
  };
}
