import { sql } from "kysely";
import { inTransaction, type Database } from "./database.ts";
import { olderThan, type Position } from "./keyset.ts";
import { foldedText, searchTextOf } from "./search-text.ts";

export interface IdentityDocument {
  username?: string;
  email?: string;
  givenName?: string;
  fullName?: string;
  pictureUrl?: string;
  description?: string;
  /** Identities that administer this one; an identity created by a person lists itself. */
  admins: string[];
  /** Identities that may use this one. */
  users: string[];
  /** People's accounts the identity's admins shared it with (absent: nobody). */
  shares?: IdentityShare[];
}

export type IdentityRole = "admin" | "user";

/** An account an identity is shared with, as its admins named it. */
export interface IdentityShare {
  /** The share's own ID: what the identity's admins see and send back, never the account's ID. */
  id: string;
  accountId: string;
  role: IdentityRole;
  /** The username or e-mail address the admin who shared it typed. */
  person: string;
}

export interface IdentityRow {
  id: string;
  version: number;
  document: IdentityDocument;
  creatorAccountId: string | null;
}

export interface MembershipRow {
  /** The organization-scoped identity ID (the `sub` the organization's apps see). */
  id: string;
  identityId: string;
  organizationId: string;
  active: boolean;
}

const memberRows = (identityId: string, document: IdentityDocument) => [
  ...document.admins.map((member) => ({
    identity_id: identityId,
    member_identity_id: member,
    role: "admin" as const,
  })),
  ...document.users
    .filter((member) => !document.admins.includes(member))
    .map((member) => ({ identity_id: identityId, member_identity_id: member, role: "user" as const })),
];

const shareRows = (identityId: string, document: IdentityDocument) =>
  (document.shares ?? []).map((share) => ({
    identity_id: identityId,
    account_id: share.accountId,
    role: share.role,
  }));

/** Replaces the lookup rows of the identity's members and shares with those of its document. */
async function storeMembers(trx: Database, id: string, document: IdentityDocument, replace: boolean) {
  if (replace) {
    await trx.deleteFrom("identity_members").where("identity_id", "=", id).execute();
    await trx.deleteFrom("identity_shares").where("identity_id", "=", id).execute();
  }
  const members = memberRows(id, document);
  if (members.length > 0) await trx.insertInto("identity_members").values(members).execute();
  const shares = shareRows(id, document);
  if (shares.length > 0) await trx.insertInto("identity_shares").values(shares).execute();
}

export async function insertIdentity(
  db: Database,
  identity: { id: string; document: IdentityDocument; creatorAccountId: string | null },
  now: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("identities")
      .values({
        id: identity.id,
        version: 1,
        document: JSON.stringify(identity.document),
        creator_account_id: identity.creatorAccountId,
        search_text: searchTextOf(identity.document),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await storeMembers(trx, identity.id, identity.document, false);
  });
}

/** Replaces the document if it is still at `version`; false when someone else changed it first. */
export async function updateIdentityDocument(
  db: Database,
  id: string,
  version: number,
  document: IdentityDocument,
  now: number,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("identities")
      .set({
        document: JSON.stringify(document),
        search_text: searchTextOf(document),
        version: version + 1,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("version", "=", version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await storeMembers(trx, id, document, true);
    return true;
  });
}

const identityColumns = ["id", "version", "document", "creator_account_id"] as const;
const toIdentity = (row: {
  id: string;
  version: number;
  document: string;
  creator_account_id: string | null;
}) => ({
  id: row.id,
  version: row.version,
  document: JSON.parse(row.document) as IdentityDocument,
  creatorAccountId: row.creator_account_id,
});

/** The identities with these IDs, newest first. */
export async function findIdentities(db: Database, ids: readonly string[]): Promise<IdentityRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("identities")
    .select(identityColumns)
    .where("id", "in", ids)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toIdentity);
}

export async function findIdentity(db: Database, id: string): Promise<IdentityRow | undefined> {
  return (await findIdentities(db, [id]))[0];
}

/** The identities the account created, newest first (the order of findIdentities). */
export async function identitiesCreatedBy(db: Database, accountId: string): Promise<IdentityRow[]> {
  const rows = await db
    .selectFrom("identities")
    .select(identityColumns)
    .where("creator_account_id", "=", accountId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toIdentity);
}

/** The identities shared with the account, each with the role it was given. */
export async function identitiesSharedWith(
  db: Database,
  accountId: string,
): Promise<{ identityId: string; role: IdentityRole }[]> {
  const rows = await db
    .selectFrom("identity_shares")
    .select(["identity_id", "role"])
    .where("account_id", "=", accountId)
    .execute();
  return rows.map((row) => ({ identityId: row.identity_id, role: row.role }));
}

/** The identities that list any of `memberIds` among their admins or users. */
export async function identitiesWithMembers(
  db: Database,
  memberIds: readonly string[],
): Promise<{ identityId: string; memberId: string; role: "admin" | "user" }[]> {
  if (memberIds.length === 0) return [];
  const rows = await db
    .selectFrom("identity_members")
    .select(["identity_id", "member_identity_id", "role"])
    .where("member_identity_id", "in", memberIds)
    .execute();
  return rows.map((row) => ({
    identityId: row.identity_id,
    memberId: row.member_identity_id,
    role: row.role,
  }));
}

const membershipColumns = ["id", "identity_id", "organization_id", "active"] as const;
const toMembership = (row: { id: string; identity_id: string; organization_id: string; active: number }) => ({
  id: row.id,
  identityId: row.identity_id,
  organizationId: row.organization_id,
  active: row.active === 1,
});

export async function findMembershipById(db: Database, id: string): Promise<MembershipRow | undefined> {
  const row = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toMembership(row);
}

export async function membershipsIn(
  db: Database,
  organizationId: string,
  identityIds: readonly string[],
): Promise<MembershipRow[]> {
  if (identityIds.length === 0) return [];
  const rows = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("organization_id", "=", organizationId)
    .where("identity_id", "in", identityIds)
    .execute();
  return rows.map(toMembership);
}

/** The memberships any of the identities has in any of the organizations, in one query. */
export async function membershipsAmong(
  db: Database,
  identityIds: readonly string[],
  organizationIds: readonly string[],
): Promise<MembershipRow[]> {
  if (identityIds.length === 0 || organizationIds.length === 0) return [];
  const rows = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("identity_id", "in", identityIds)
    .where("organization_id", "in", organizationIds)
    .execute();
  return rows.map(toMembership);
}

/** The identity's membership in the organization, created (active, with a fresh scoped ID) if missing. */
export async function ensureMembership(
  db: Database,
  membership: MembershipRow,
  now: number,
): Promise<{ membership: MembershipRow; created: boolean }> {
  const inserted = await db
    .insertInto("identity_organizations")
    .values({
      id: membership.id,
      identity_id: membership.identityId,
      organization_id: membership.organizationId,
      active: membership.active ? 1 : 0,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(["identity_id", "organization_id"]).doNothing())
    .executeTakeFirst();
  const [stored] = await membershipsIn(db, membership.organizationId, [membership.identityId]);
  if (!stored) throw new Error("membership vanished while it was being created");
  return { membership: stored, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export async function applicationsUsed(
  db: Database,
  membershipIds: readonly string[],
): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  if (membershipIds.length === 0) return used;
  const rows = await db
    .selectFrom("identity_applications")
    .select(["membership_id", "application_id"])
    .where("membership_id", "in", membershipIds)
    .execute();
  for (const row of rows)
    used.set(row.membership_id, [...(used.get(row.membership_id) ?? []), row.application_id]);
  return used;
}

/**
 * Records that the identity signed in to the application: when it last signed in to the organization,
 * and that it used the application; true when it did so for the first time.
 */
export async function recordApplicationUse(
  db: Database,
  membershipId: string,
  applicationId: string,
  now: number,
): Promise<boolean> {
  await db
    .updateTable("identity_organizations")
    .set({ last_signed_in_at: now })
    .where("id", "=", membershipId)
    .execute();
  const result = await db
    .insertInto("identity_applications")
    .values({ membership_id: membershipId, application_id: applicationId, created_at: now })
    .onConflict((conflict) => conflict.columns(["membership_id", "application_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function membershipsOf(db: Database, identityId: string): Promise<MembershipRow[]> {
  const rows = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("identity_id", "=", identityId)
    .orderBy("created_at")
    .execute();
  return rows.map(toMembership);
}

export async function setMembershipActive(db: Database, id: string, active: boolean): Promise<void> {
  await db
    .updateTable("identity_organizations")
    .set({ active: active ? 1 : 0 })
    .where("id", "=", id)
    .execute();
}

/** Leaving an organization forgets the scoped ID: joining again gives a new one. */
export async function deleteMembership(db: Database, id: string): Promise<void> {
  await db.deleteFrom("identity_organizations").where("id", "=", id).execute();
}

/** A member of an organization as its admins list it. */
export interface MemberRow extends MembershipRow {
  document: IdentityDocument;
  joinedAt: number;
  lastSignedInAt: number | null;
}

/** Characters that LIKE treats as patterns, escaped so a search word matches only itself. */
const likeEscaped = (word: string) => word.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * One page of an organization's members, newest first, starting after the `before` cursor; with
 * `words`, only members whose names contain every word. The organization's index gives the order; the
 * words are checked on its rows only.
 */
export async function membersOf(
  db: Database,
  organizationId: string,
  limit: number,
  { before, words }: { before?: Position | undefined; words: readonly string[] },
): Promise<MemberRow[]> {
  let query = db
    .selectFrom("identity_organizations as membership")
    .innerJoin("identities as identity", "identity.id", "membership.identity_id")
    .select([
      "membership.id",
      "membership.identity_id",
      "membership.organization_id",
      "membership.active",
      "membership.created_at",
      "membership.last_signed_in_at",
      "identity.document",
    ])
    .where("membership.organization_id", "=", organizationId);
  for (const word of words) {
    query = query.where(
      sql<boolean>`identity.search_text like ${`%${likeEscaped(foldedText(word))}%`} escape '\\'`,
    );
  }
  if (before) query = query.where(olderThan(before, "membership.created_at", "membership.id"));
  const rows = await query
    .orderBy("membership.created_at", "desc")
    .orderBy("membership.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...toMembership(row),
    document: JSON.parse(row.document) as IdentityDocument,
    joinedAt: row.created_at,
    lastSignedInAt: row.last_signed_in_at,
  }));
}
