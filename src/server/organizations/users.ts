import type { MemberSecondFactor, MemberStatus, OrganizationUser } from "../../common/api/organization.ts";
import { decodeCursor, encodeCursor } from "../activity/activity.ts";
import type { Caller } from "../access/caller.ts";
import { administeredOrganization } from "../access/organizations.ts";
import type { Database } from "../store/database.ts";
import { applicationsUsed } from "../store/identities.ts";
import { membersOf, type MemberRow } from "../store/member-search.ts";
import { blocksOfIdentities } from "../store/blocks.ts";
import { queryWordsOf } from "../store/search-text.ts";
import { secondFactorsOfIdentities } from "./member-factors.ts";

// The organization's members as its admins see them: by the organization-scoped ID, never by the
// identity's own ID or its accounts, newest first.

export const usersPageSize = 20;

const iso = (time: number) => new Date(time).toISOString();

/** A member's status; a block, once the organization records blocks, is found here too. */
function statusOf(member: MemberRow, blocked: boolean): MemberStatus {
  if (blocked) return "blocked";
  return member.active ? "active" : "disabled";
}

function userView(
  member: MemberRow,
  admins: readonly string[],
  applications: string[],
  blocked: boolean,
  secondFactors: MemberSecondFactor[],
): OrganizationUser {
  const { username, email, givenName, fullName, pictureUrl } = member.document;
  return {
    id: member.id,
    username,
    email,
    givenName,
    fullName,
    pictureUrl,
    status: statusOf(member, blocked),
    admin: admins.includes(member.identityId),
    applications,
    joinedAt: iso(member.joinedAt),
    ...(member.lastSignedInAt === null ? {} : { lastSignedInAt: iso(member.lastSignedInAt) }),
    secondFactors,
  };
}

/** A page of the organization's members for its admins; with `q`, those found by its words (search-text.ts). */
export async function organizationUsersPage(
  db: Database,
  caller: Caller,
  organizationId: string,
  query: { cursor?: string | undefined; q?: string | undefined },
): Promise<{ items: OrganizationUser[]; next?: string }> {
  const { stored } = await administeredOrganization(db, caller, organizationId);
  const rows = await membersOf(db, organizationId, usersPageSize + 1, {
    before: decodeCursor(query.cursor),
    words: queryWordsOf(query.q ?? ""),
  });
  const members = rows.slice(0, usersPageSize);
  const used = await applicationsUsed(
    db,
    members.map((member) => member.id),
  );
  const blocked = new Set(
    (
      await blocksOfIdentities(
        db,
        organizationId,
        members.map((member) => member.identityId),
      )
    ).map((block) => block.identityId),
  );
  const factors = await secondFactorsOfIdentities(
    db,
    members.map((member) => member.identityId),
  );
  const items = members.map((member) =>
    userView(
      member,
      stored.document.admins,
      used.get(member.id) ?? [],
      blocked.has(member.identityId),
      factors.get(member.identityId) ?? [],
    ),
  );
  const last = rows[usersPageSize - 1];
  return rows.length > usersPageSize && last
    ? { items, next: encodeCursor(last.joinedAt, last.id) }
    : { items };
}
