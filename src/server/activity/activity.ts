import type { Activity } from "../../common/api/activity.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { activitiesOf, insertActivity } from "../store/activities.ts";

export type ActivityEntry = Omit<Activity, "id" | "timestamp">;

/** Records what an account did (or what happened to it); the account sees it in its activity. */
export async function recordActivity(
  db: Database,
  accountId: string | null,
  entry: ActivityEntry,
): Promise<void> {
  await insertActivity(db, {
    id: newId(),
    accountId,
    type: entry.type,
    document: JSON.stringify(entry),
    createdAt: Date.now(),
  });
}

export const activityPageSize = 20;

function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

function decodeCursor(cursor: string | undefined): { createdAt: number; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [unknown, unknown];
    return typeof createdAt === "number" && typeof id === "string" ? { createdAt, id } : undefined;
  } catch {
    return undefined;
  }
}

export function toActivity(row: { id: string; document: string; createdAt: number }): Activity {
  return {
    ...(JSON.parse(row.document) as ActivityEntry),
    id: row.id,
    timestamp: new Date(row.createdAt).toISOString(),
  };
}

export async function activityPage(
  db: Database,
  accountId: string,
  cursor: string | undefined,
): Promise<{ items: Activity[]; next?: string }> {
  const rows = await activitiesOf(db, accountId, activityPageSize + 1, decodeCursor(cursor));
  const items = rows.slice(0, activityPageSize).map(toActivity);
  const last = rows[activityPageSize - 1];
  return rows.length > activityPageSize && last
    ? { items, next: encodeCursor(last.createdAt, last.id) }
    : { items };
}
