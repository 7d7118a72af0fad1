import type { ActivityChange } from "../../common/api/activity.ts";
import type { IdentityUpdate } from "./identities.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { findDocument } from "../store/documents.ts";
import {
  applicationsUsed,
  deleteMembership,
  ensureMembership,
  membershipsOf,
  setMembershipActive,
} from "../store/identities.ts";

type Changes = NonNullable<IdentityUpdate["organizations"]>;

/**
 * Makes the identity's memberships match the list its admin sent: it joins (with a new
 * organization-scoped ID), leaves, is activated or disabled. Returns the kinds of change made.
 */
export async function applyMemberships(
  db: Database,
  identityId: string,
  wanted: Changes,
): Promise<ActivityChange[]> {
  const current = await membershipsOf(db, identityId);
  const changes = new Set<ActivityChange>();
  const now = Date.now();
  for (const { organizationId, active } of wanted) {
    const existing = current.find((membership) => membership.organizationId === organizationId);
    if (existing) {
      if (existing.active !== active) {
        await setMembershipActive(db, existing.id, active);
        changes.add(active ? "membershipActivated" : "membershipDisabled");
      }
      continue;
    }
    if (!(await findDocument(db, "organizations", organizationId))) {
      throw new HttpError(400, "unknownOrganization", `no organization ${organizationId}`);
    }
    await ensureMembership(db, { id: newId(), identityId, organizationId, active }, now);
    changes.add("membershipAdded");
  }
  for (const membership of current) {
    if (wanted.some((change) => change.organizationId === membership.organizationId)) continue;
    await deleteMembership(db, membership.id);
    changes.add("membershipRemoved");
  }
  return [...changes];
}

/** The identity's memberships with the applications it used in each. */
export async function membershipViews(db: Database, identityId: string) {
  const memberships = await membershipsOf(db, identityId);
  const used = await applicationsUsed(
    db,
    memberships.map((membership) => membership.id),
  );
  return memberships.map((membership) => ({
    id: membership.id,
    organizationId: membership.organizationId,
    active: membership.active,
    applications: used.get(membership.id) ?? [],
  }));
}
