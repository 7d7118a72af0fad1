import { activityCursorSchema, type Activity } from "../../common/api/activity.ts";
import { HttpError } from "../http/errors.ts";
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

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The position a cursor of ours stands for; any other value is refused before the query is made. */
function decodeCursor(cursor: unknown): { createdAt: number; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const decoded =
    typeof cursor === "string"
      ? activityCursorSchema.safeParse(parsedJson(Buffer.from(cursor, "base64url").toString()))
      : undefined;
  if (!decoded?.success)
    throw new HttpError(400, "badRequest", "cursor: not a cursor of this list", { field: "cursor" });
  const [createdAt, id] = decoded.data;
  return { createdAt, id };
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
  cursor: unknown,
): Promise<{ items: Activity[]; next?: string }> {
  const rows = await activitiesOf(db, accountId, activityPageSize + 1, decodeCursor(cursor));
  const items = rows.slice(0, activityPageSize).map(toActivity);
  const last = rows[activityPageSize - 1];
  return rows.length > activityPageSize && last
    ? { items, next: encodeCursor(last.createdAt, last.id) }
    : { items };
}
