import Provider, {
  type Account,
  type Client,
  type FindAccount,
  type KoaContextWithOIDC,
} from "oidc-provider";
import type { Database } from "../store/database.ts";
import type { KeyedHash } from "../secrets/keyed-hash.ts";
import { accountExists, emailsOfAccount, emailsOfGrantAccount } from "../store/accounts.ts";
import { deletionDueAt } from "../store/account-deletion.ts";
import { findApplicationChoice } from "../store/application-choices.ts";
import { findMembershipById } from "../store/identities.ts";
import {
  findChosenSubject,
  findGrantSubject,
  findMembershipSubject,
  type TokenSubject,
} from "../store/token-subjects.ts";
import { isAccountClient } from "./account-client.ts";
import { ownerOf } from "./client-extras.ts";

// The engine's account is the person: the single sign-on session, grants and tokens belong to the
// account, so that one sign-in serves the apps of every organization (design.md §5). What an app sees
// is the identity the person signed in with for it, as the app's organization knows it: the engine
// treats that as a pairwise subject, so `sub` differs per organization and no organization can
// correlate people. Each grant keeps its identity (grant_accounts), so a person may use two identities
// with one app in two browsers; the identity last chosen for the app answers where no grant says
// (another client of the app, a new session). Sessions, grants and tokens of earlier versions name the
// membership itself; they still work.

/** The person as one app sees them: the identity it knows them by, and the scopes agreed to with it. */
export interface AppAccount extends Account {
  /** The organization-scoped identity ID: the app's `sub`. */
  membershipId: string;
  identityId: string;
  /** The scopes agreed to when the identity was chosen for the app; absent where a grant said. */
  agreedScopes?: readonly string[] | undefined;
  /** When the account is to be deleted, when it was read with the identity (`null`: not pending). */
  deletionDueAt?: number | null | undefined;
}

/** Whose proof of an e-mail address counts: the signed-in account, or for earlier grants the grant's. */
type EmailProof = { accountId: string } | { grantId: string } | undefined;

interface FoundSubject {
  subject: TokenSubject;
  agreedScopes?: readonly string[] | undefined;
  proof: EmailProof;
  /** When the account is to be deleted, when it was read with the subject (`null`: not pending). */
  deletionDueAt?: number | null;
}

/**
 * The identity behind `id` for the client's app: the grant's when one is named, else (for a request
 * that names none) the one chosen for the app, else `id` is an earlier version's membership.
 */
async function subjectOf(
  db: Database,
  id: string,
  client: Client,
  grantId: string | undefined,
  { orChosen }: { orChosen: boolean },
): Promise<FoundSubject | undefined> {
  const { organizationId, applicationId } = ownerOf(client);
  const ofGrant = grantId ? await findGrantSubject(db, id, organizationId, grantId) : undefined;
  const chosen = !ofGrant && orChosen ? await findChosenSubject(db, id, applicationId) : undefined;
  const found: FoundSubject | undefined =
    ofGrant || chosen
      ? {
          subject: (ofGrant ?? chosen) as TokenSubject,
          agreedScopes: chosen?.scopes,
          proof: { accountId: id },
          ...(ofGrant ? { deletionDueAt: ofGrant.deletionDueAt ?? null } : {}),
        }
      : await membershipSubject(db, id, grantId);
  const subject = found?.subject;
  if (!subject?.active || subject.blocked || subject.organizationId !== organizationId) return undefined;
  return found;
}

async function membershipSubject(db: Database, id: string, grantId: string | undefined) {
  const subject = await findMembershipSubject(db, id, grantId);
  return subject && { subject, proof: grantId ? { grantId } : undefined };
}

/**
 * What the flow's finish checked and hands the engine with the grant (flow/finish.ts): the identity the
 * account signed in with, in good standing a moment ago.
 */
// A type rather than an interface: the engine's result takes it as a record of unknown values.
export type CheckedConsent = {
  grantId: string;
  accountId: string;
  membershipId: string;
  identityId: string;
};

/** The identity the finished flow checked for this account and grant, when the request resumes it. */
function checkedAtFinish(ctx: KoaContextWithOIDC, accountId: string, grantId: string | undefined) {
  const consent = ctx.oidc.result?.consent as Partial<CheckedConsent> | undefined;
  const { membershipId, identityId } = consent ?? {};
  if (consent?.accountId !== accountId || consent.grantId !== grantId) return undefined;
  return membershipId && identityId ? { membershipId, identityId } : undefined;
}

/**
 * The account as the client's app sees it: found only while the identity is active and not blocked in
 * its organization. A block refuses the tokens of the identity (and of the accounts it covers) at
 * once, whatever a revocation may have missed; so does a pending deletion of the account. Unknown when
 * the person has not chosen an identity for the app yet: the engine then asks (oidc/interaction-policy.ts).
 */
export function findAccountFor(db: Database, accountSubjects: KeyedHash): FindAccount {
  return async (ctx, id, token) => {
    const client = ctx.oidc.client;
    if (!client) return undefined;
    if (await isAccountClient(db, client.clientId)) return accountOfPage(db, accountSubjects, id);
    // A token names its grant; an authorization request has the grant this session holds for the app.
    const grantId = token
      ? "grantId" in token
        ? token.grantId
        : undefined
      : (ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(client.clientId));
    // The authorization request that resumes a finished flow has its identity checked by the finish
    // (a block since is still met by the code's exchange, whose token asks again).
    const checked = token ? undefined : checkedAtFinish(ctx, id, grantId);
    if (checked) {
      const subject = () => subjectOf(db, id, client, grantId, { orChosen: true });
      return accountOfApp(db, client, id, checked, { deletionDueAt: null }, subject);
    }
    const found = await subjectOf(db, id, client, grantId, { orChosen: !token });
    if (!found) return undefined;
    // An account its person asked to delete gives apps nothing more while it waits: their codes,
    // access tokens and refresh tokens are refused until the person keeps it (a sign-in for an app
    // stops to offer that first: oidc/interaction-policy.ts). A token's grant says it with the subject.
    if (token) {
      const dueAt = found.deletionDueAt === undefined ? await deletionDueAt(db, id) : found.deletionDueAt;
      if (dueAt !== null && dueAt !== undefined) return undefined;
    }
    return accountOfApp(db, client, id, found.subject, found, () => Promise.resolve(found));
  };
}

/** The engine's account for an app: its identity, and its claims as read through `subject`. */
function accountOfApp(
  db: Database,
  client: Client,
  accountId: string,
  identity: { membershipId: string; identityId: string },
  known: Pick<FoundSubject, "agreedScopes" | "deletionDueAt">,
  subject: () => Promise<FoundSubject | undefined>,
): AppAccount {
  return {
    accountId,
    membershipId: identity.membershipId,
    identityId: identity.identityId,
    agreedScopes: known.agreedScopes,
    deletionDueAt: known.deletionDueAt,
    claims: async (use) => {
      const found = await subject();
      if (!found) throw new Error("the identity can no longer be used here");
      return {
        sub: identity.membershipId,
        ...(use === "id_token" ? { azp: client.clientId } : {}),
        ...(await identityClaims(db, found.subject, found.proof)),
      };
    },
  };
}

/**
 * The person as the account page sees them: the account itself, while it exists, known by a `sub` of
 * its own (a keyed hash of its ID, stable and unknown to every organization) and with no profile
 * claims. The engine's checks that compare a subject (`id_token_hint`) compare that one.
 */
async function accountOfPage(
  db: Database,
  accountSubjects: KeyedHash,
  accountId: string,
): Promise<AppAccount | undefined> {
  if (!(await accountExists(db, accountId))) return undefined;
  return {
    accountId,
    membershipId: accountSubjects(accountId),
    identityId: "",
    claims: () => ({ sub: accountId }),
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

/** The grant the request is about for this client: the one looked at, else the session's. */
function grantOfRequest(ctx: KoaContextWithOIDC | undefined, client: Client): string | undefined {
  const grant = ctx?.oidc.entities.Grant;
  if (grant?.jti && grant.clientId === client.clientId) return grant.jti;
  return ctx?.oidc.session?.grantIdFor(client.clientId);
}

/**
 * The engine's pairwise subject: the ID of the identity the person signed in with for the client's
 * app, in the app's organization. The account found for this request already knows it; logout tokens
 * (sent while the engine ends a session) and introspection by another client ask the store.
 */
export function appSubjectFor(db: Database) {
  return async (ctx: KoaContextWithOIDC | undefined, accountId: string, client: Client): Promise<string> => {
    const account = ctx?.oidc.account as AppAccount | undefined;
    if (account?.accountId === accountId && ctx?.oidc.client?.clientId === client.clientId)
      return account.membershipId;
    const { organizationId, applicationId } = ownerOf(client);
    const request = ctx ?? Provider.ctx;
    const grantId = grantOfRequest(request, client);
    const ofGrant = grantId ? await findGrantSubject(db, accountId, organizationId, grantId) : undefined;
    if (ofGrant) return ofGrant.membershipId;
    const choice = await findApplicationChoice(db, accountId, applicationId);
    if (choice) return choice.membershipId;
    // An earlier version's session or token: its account is the membership itself.
    const membership = await findMembershipById(db, accountId);
    if (membership?.organizationId === organizationId) return accountId;
    throw new Error("no identity was chosen for this app");
  };
}

/** The engine's pairwise subject for every client: the account page's own (accountOfPage), else the app's. */
export function subjectFor(db: Database, accountSubjects: KeyedHash) {
  const ofApp = appSubjectFor(db);
  return async (ctx: KoaContextWithOIDC | undefined, accountId: string, client: Client): Promise<string> =>
    (await isAccountClient(db, client.clientId)) ? accountSubjects(accountId) : ofApp(ctx, accountId, client);
}
