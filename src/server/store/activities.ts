import { categoryOf, type ActivityCategory } from "../../common/api/activity.ts";
import type { Database } from "./database.ts";
import { olderThan, type Position } from "./keyset.ts";
import { preparedQuery } from "./prepared.ts";

export interface ActivityRow {
  id: string;
  accountId: string | null;
  type: string;
  document: string;
  createdAt: number;
}

const toActivityRow = (row: {
  id: string;
  account_id: string | null;
  type: string;
  document: string;
  created_at: number;
}): ActivityRow => ({
  id: row.id,
  accountId: row.account_id,
  type: row.type,
  document: row.document,
  createdAt: row.created_at,
});

/** An organization an activity is about, and the member of it the activity concerns, if one. */
export interface ActivityOrganization {
  organizationId: string;
  membershipId?: string | undefined;
}

export async function insertActivity(
  db: Database,
  activity: ActivityRow,
  organizations: readonly ActivityOrganization[] = [],
): Promise<void> {
  const category = categoryOf(activity.type) ?? null;
  const { id, accountId, type, document, createdAt } = activity;
  await insertActivityQuery(db, id, accountId, type, category, document, createdAt);
  // Mostly one organization, or none: a row each.
  for (const { organizationId, membershipId } of organizations) {
    await insertActivityOrganizationQuery(db, id, organizationId, membershipId ?? null, category, createdAt);
  }
}

// Recorded at every sign-in: prepared (prepared.ts).
const insertActivityQuery = preparedQuery(
  (
    db: Database,
    id: string,
    accountId: string | null,
    type: string,
    category: string | null,
    document: string,
    createdAt: number,
  ) =>
    db
      .insertInto("activities")
      .values({ id, account_id: accountId, type, category, document, created_at: createdAt }),
);

const insertActivityOrganizationQuery = preparedQuery(
  (
    db: Database,
    activityId: string,
    organizationId: string,
    membershipId: string | null,
    category: string | null,
    createdAt: number,
  ) =>
    db
      .insertInto("activity_organizations")
      .values({
        activity_id: activityId,
        organization_id: organizationId,
        membership_id: membershipId,
        category,
        created_at: createdAt,
      })
      .onConflict((conflict) => conflict.columns(["activity_id", "organization_id"]).doNothing()),
);

/**
 * One page of an account's activity, newest first, starting after the `before` cursor, of one category
 * only or of any of several.
 */
export async function activitiesOf(
  db: Database,
  accountId: string,
  limit: number,
  {
    before,
    category,
    categories,
  }: {
    before?: Position | undefined;
    category?: ActivityCategory | undefined;
    categories?: readonly ActivityCategory[] | undefined;
  },
): Promise<ActivityRow[]> {
  let query = db
    .selectFrom("activities")
    .select(["id", "account_id", "type", "document", "created_at"])
    .where("account_id", "=", accountId);
  if (category) query = query.where("category", "=", category);
  if (categories) query = query.where("category", "in", categories.length > 0 ? categories : [""]);
  if (before) query = query.where(olderThan(before, "created_at", "id"));
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map(toActivityRow);
}

/**
 * One page of an organization's activity, newest first, after the `before` cursor; of one category
 * only, or concerning one member only. The organization's indexes give the order.
 */
export async function activitiesOfOrganization(
  db: Database,
  organizationId: string,
  limit: number,
  {
    before,
    category,
    membershipId,
  }: {
    before?: Position | undefined;
    category?: ActivityCategory | undefined;
    membershipId?: string | undefined;
  },
): Promise<ActivityRow[]> {
  let query = db
    .selectFrom("activity_organizations as link")
    .innerJoin("activities as activity", "activity.id", "link.activity_id")
    .select(["activity.id", "activity.account_id", "activity.type", "activity.document", "link.created_at"])
    .where("link.organization_id", "=", organizationId);
  if (membershipId !== undefined) query = query.where("link.membership_id", "=", membershipId);
  if (category) query = query.where("link.category", "=", category);
  if (before) query = query.where(olderThan(before, "link.created_at", "link.activity_id"));
  const rows = await query
    .orderBy("link.created_at", "desc")
    .orderBy("link.activity_id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toActivityRow);
}

/** Whether the activity is one of the organization's. */
export async function isOrganizationActivity(
  db: Database,
  organizationId: string,
  activityId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("activity_organizations")
    .select("activity_id")
    .where("organization_id", "=", organizationId)
    .where("activity_id", "=", activityId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findActivity(db: Database, id: string): Promise<ActivityRow | undefined> {
  const row = await db
    .selectFrom("activities")
    .select(["id", "account_id", "type", "document", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toActivityRow(row);
}
