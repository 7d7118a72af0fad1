import type { Database } from "./database.ts";

export interface ActivityRow {
  id: string;
  accountId: string | null;
  type: string;
  document: string;
  createdAt: number;
}

export async function insertActivity(db: Database, activity: ActivityRow): Promise<void> {
  await db
    .insertInto("activities")
    .values({
      id: activity.id,
      account_id: activity.accountId,
      type: activity.type,
      document: activity.document,
      created_at: activity.createdAt,
    })
    .execute();
}

/** One page of an account's activity, newest first, starting after the `before` cursor, of some types only. */
export async function activitiesOf(
  db: Database,
  accountId: string,
  limit: number,
  {
    before,
    types,
  }: { before?: { createdAt: number; id: string } | undefined; types?: readonly string[] | undefined },
): Promise<ActivityRow[]> {
  let query = db
    .selectFrom("activities")
    .select(["id", "account_id", "type", "document", "created_at"])
    .where("account_id", "=", accountId);
  if (types) query = query.where("type", "in", types);
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", before.createdAt),
        eb.and([eb("created_at", "=", before.createdAt), eb("id", "<", before.id)]),
      ]),
    );
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    document: row.document,
    createdAt: row.created_at,
  }));
}

export async function findActivity(db: Database, id: string): Promise<ActivityRow | undefined> {
  const row = await db
    .selectFrom("activities")
    .select(["id", "account_id", "type", "document", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      accountId: row.account_id,
      type: row.type,
      document: row.document,
      createdAt: row.created_at,
    }
  );
}
