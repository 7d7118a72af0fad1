import type Provider from "oidc-provider";
import type { Database } from "../store/database.ts";
import { grantsOf } from "../store/blocks.ts";
import { findGrantAccount } from "../store/flows.ts";
import { findMembershipById } from "../store/identities.ts";
import { destroySessionsOf } from "../store/oidc-models.ts";
import type { BackchannelLogouts, EndedSession } from "./backchannel-logout.ts";

/** Whom a block stops in one organization: an identity there, and maybe every sign-in of some accounts. */
export interface Revoked {
  organizationId: string;
  /** The organization-scoped identity ID. */
  membershipId: string;
  identityId: string;
  accountIds: readonly string[];
}

/**
 * Ends at once what lets the blocked use the organization's apps: every grant of the identity there,
 * and of the accounts' sign-ins there, with the codes and access and refresh tokens it issued (so
 * introspection, userinfo and refresh refuse them), and their single sign-on sessions, whose apps are
 * told by back-channel logout.
 */
export async function revokeInOrganization(
  { provider, db, logouts }: { provider: Provider; db: Database; logouts: BackchannelLogouts },
  revoked: Revoked,
): Promise<void> {
  const { organizationId, membershipId, identityId, accountIds } = revoked;
  const sessions = new Set([membershipId]);
  for (const grantId of await grantsOf(db, [identityId], accountIds)) {
    const grant = await provider.Grant.find(grantId);
    if (!grant?.accountId) continue;
    const membership = await findMembershipById(db, grant.accountId);
    if (membership?.organizationId !== organizationId) continue;
    const signedIn = await findGrantAccount(db, grantId);
    const covered =
      membership.identityId === identityId ||
      (signedIn !== undefined && accountIds.includes(signedIn.accountId));
    if (!covered) continue;
    await provider.Grant.adapter.revokeByGrantId(grantId);
    await grant.destroy();
    sessions.add(grant.accountId);
  }
  const ended = await destroySessionsOf(db, [...sessions]);
  await Promise.all(ended.map((payload) => logouts.announce(JSON.parse(payload) as EndedSession)));
}
