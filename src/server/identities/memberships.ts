import type { ActivityChange, Change } from "../../common/api/activity.ts";
import type { IdentityUpdate } from "./identities.ts";
import { recordActivity } from "../activity/activity.ts";
import { groupedChanges } from "../activity/changes.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { findDocuments } from "../store/documents.ts";
import {
  applicationsUsed,
  deleteMembership,
  ensureMembership,
  membershipsOf,
  setMembershipActive,
  type MembershipRow,
} from "../store/identities.ts";

type Changes = NonNullable<IdentityUpdate["organizations"]>;

/**
 * Joins the identity to the organization, active and with a fresh organization-scoped ID, unless it is
 * a member already. Only where both sides agreed: the person signs in to one of the organization's
 * apps with it, or accepts the organization's invitation.
 */
export async function joinOrganization(
  db: Database,
  accountId: string,
  identityId: string,
  organizationId: string,
): Promise<{ membership: MembershipRow; created: boolean }> {
  const joined = await ensureMembership(
    db,
    { id: newId(), identityId, organizationId, active: true },
    Date.now(),
  );
  if (joined.created) {
    await recordActivity(db, accountId, {
      type: "identityUpdate",
      identities: [{ id: identityId }],
      changes: [{ kind: "membershipAdded", organizations: [{ id: organizationId }] }],
    });
    await recordMembersChange(db, "identitiesAdded", identityId, organizationId, joined.membership.id);
  }
  return joined;
}

/**
 * The organization's side of a member joining or leaving: an entry of the organization's activity
 * only (the person's own activity has the identity's side).
 */
export async function recordMembersChange(
  db: Database,
  kind: "identitiesAdded" | "identitiesRemoved",
  identityId: string,
  organizationId: string,
  membershipId: string,
): Promise<void> {
  await recordActivity(
    db,
    null,
    {
      type: "organizationUpdate",
      actor: { id: identityId },
      organizations: [{ id: organizationId }],
      changes: [{ kind, identities: [{ id: identityId }] }],
    },
    [{ organizationId, membershipId }],
  );
}

/**
 * The identity's memberships, when the list its admin sent only changes them. Joining is not the
 * identity's decision alone (see {@link joinOrganization}), so a list with a new organization is refused.
 */
export async function changeableMemberships(
  db: Database,
  identityId: string,
  wanted: Changes,
): Promise<MembershipRow[]> {
  const current = await membershipsOf(db, identityId);
  const isMember = (organizationId: string) =>
    current.some((membership) => membership.organizationId === organizationId);
  if (!wanted.every((change) => isMember(change.organizationId))) {
    throw new HttpError(
      403,
      "joinByInvitation",
      "an identity joins an organization by signing in to one of its apps or by accepting its invitation",
    );
  }
  return current;
}

/**
 * Makes the identity's memberships (from {@link changeableMemberships}) match the list its admin
 * sent: it leaves, is activated or disabled. Returns the kinds of change made.
 */
export async function applyMemberships(
  db: Database,
  current: readonly MembershipRow[],
  wanted: Changes,
): Promise<Change[]> {
  const changed: { kind: ActivityChange; item: string }[] = [];
  for (const { organizationId, active } of wanted) {
    const existing = current.find((membership) => membership.organizationId === organizationId);
    if (existing && existing.active !== active) {
      await setMembershipActive(db, existing.id, active);
      changed.push({ kind: active ? "membershipActivated" : "membershipDisabled", item: organizationId });
    }
  }
  for (const membership of current) {
    if (wanted.some((change) => change.organizationId === membership.organizationId)) continue;
    await deleteMembership(db, membership.id);
    await recordMembersChange(
      db,
      "identitiesRemoved",
      membership.identityId,
      membership.organizationId,
      membership.id,
    );
    changed.push({ kind: "membershipRemoved", item: membership.organizationId });
  }
  return groupedChanges(changed, (kind, ids) => ({ kind, organizations: ids.map((id) => ({ id })) }));
}

/** The identity's memberships with the organizations' names and the applications it used in each. */
export async function membershipViews(db: Database, identityId: string) {
  const memberships = await membershipsOf(db, identityId);
  const used = await applicationsUsed(
    db,
    memberships.map((membership) => membership.id),
  );
  const organizations = await findDocuments<{ name: string }>(
    db,
    "organizations",
    memberships.map((membership) => membership.organizationId),
  );
  const nameOf = (id: string) => organizations.find((organization) => organization.id === id)?.document.name;
  return memberships.map((membership) => ({
    id: membership.id,
    organizationId: membership.organizationId,
    organizationName: nameOf(membership.organizationId),
    active: membership.active,
    applications: used.get(membership.id) ?? [],
  }));
}
