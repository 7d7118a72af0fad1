import type { Grant } from "oidc-provider";
import type Provider from "oidc-provider";
import type { Database } from "../store/database.ts";
import { grantsOf } from "../store/blocks.ts";
import { findGrantAccount } from "../store/flows.ts";
import { destroySessionsOf, sessionsOf } from "../store/oidc-models.ts";
import type { BackchannelLogouts, EndedSession } from "./backchannel-logout.ts";
import { ownerOf } from "./client-extras.ts";

interface RevocationDeps {
  provider: Provider;
  db: Database;
  logouts: BackchannelLogouts;
}

/** Whom a block stops in one organization: an identity there, and maybe every sign-in of some accounts. */
export interface Revoked {
  organizationId: string;
  /** The organization-scoped identity ID. */
  membershipId: string;
  identityId: string;
  accountIds: readonly string[];
}

/** Ends a grant with the codes and access and refresh tokens it issued: introspection, userinfo and refresh refuse them. */
async function endGrant(provider: Provider, grant: Grant): Promise<void> {
  if (grant.jti) await provider.Grant.adapter.revokeByGrantId(grant.jti);
  await grant.destroy();
}

/** The grant, the application of its client and who signed in for it. */
async function grantDetails(provider: Provider, db: Database, grantId: string) {
  const grant = await provider.Grant.find(grantId);
  const client = grant?.clientId ? await provider.Client.find(grant.clientId) : undefined;
  const signedIn = await findGrantAccount(db, grantId);
  return grant && client && signedIn ? { grant, owner: ownerOf(client), signedIn } : undefined;
}

/**
 * Ends at once what lets the blocked use the organization's apps: every grant of the identity there,
 * and of the accounts' sign-ins there. A person's single sign-on session goes on for other
 * organizations' apps; this organization's apps in it are told by back-channel logout that it ended
 * for them, and the person is asked again (and refused) at their next sign-in there. A session of an
 * earlier version, which named the identity itself, ends.
 */
export async function revokeInOrganization(
  { provider, db, logouts }: RevocationDeps,
  revoked: Revoked,
): Promise<void> {
  const { organizationId, membershipId, identityId, accountIds } = revoked;
  const identitySessions = new Set([membershipId]);
  const people = new Set<string>();
  const endedClients = new Set<string>();
  for (const grantId of await grantsOf(db, [identityId], accountIds)) {
    const found = await grantDetails(provider, db, grantId);
    if (found?.owner.organizationId !== organizationId) continue;
    const { grant, signedIn } = found;
    if (signedIn.identityId !== identityId && !accountIds.includes(signedIn.accountId)) continue;
    await endGrant(provider, grant);
    if (!grant.accountId || !grant.clientId) continue;
    if (grant.accountId === signedIn.accountId) people.add(grant.accountId);
    else identitySessions.add(grant.accountId);
    endedClients.add(grant.clientId);
  }
  const ended = (await destroySessionsOf(db, [...identitySessions])).map(
    (payload) => JSON.parse(payload) as EndedSession,
  );
  const endedHere = (await sessionsOf(db, [...people])).map((payload) => {
    const session = JSON.parse(payload) as EndedSession;
    const authorizations = Object.entries(session.authorizations ?? {}).filter(([clientId]) =>
      endedClients.has(clientId),
    );
    return { ...session, authorizations: Object.fromEntries(authorizations) };
  });
  await Promise.all([...ended, ...endedHere].map((session) => logouts.announce(session)));
}
