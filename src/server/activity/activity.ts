import {
  activityCursorSchema,
  activityPageSize,
  type Activity,
  type ActivityCategory,
  type ActivityChange,
  type Change,
} from "../../common/api/activity.ts";
import type { Caller } from "../access/caller.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import {
  activitiesOf,
  activitiesOfOrganization,
  insertActivity,
  type ActivityOrganization,
  type ActivityRow,
} from "../store/activities.ts";
import { withNames, type ScopeOrganization } from "./names.ts";

/** An entry as it is recorded: what it refers to by ID only; names are looked up when it is read. */
export type ActivityEntry = Omit<Activity, "id" | "timestamp">;

/** When this process last recorded an entry (see {@link recordedAt}). */
let lastRecordedAt = 0;

/**
 * The time of a new entry: now, or a millisecond after the process's previous entry, so that entries
 * recorded one after another (joining an organization, then signing in to its app) are listed in that
 * order even within one millisecond. It runs ahead of the clock only while entries come faster than
 * one a millisecond.
 */
function recordedAt(): number {
  lastRecordedAt = Math.max(Date.now(), lastRecordedAt + 1);
  return lastRecordedAt;
}

/**
 * Records what an account did (or what happened to it); the account sees it in its activity. An entry
 * about organizations is also theirs: their admins see it in the organization's activity, concerning
 * the member given (by organization-scoped ID). With no account, only the organizations see it.
 */
export async function recordActivity(
  db: Database,
  accountId: string | null,
  entry: ActivityEntry,
  organizations: readonly ActivityOrganization[] = [],
): Promise<void> {
  await insertActivity(
    db,
    { id: newId(), accountId, type: entry.type, document: JSON.stringify(entry), createdAt: recordedAt() },
    organizations,
  );
}

export function encodeCursor(createdAt: number, id: string): string {
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
export function decodeCursor(cursor: string | undefined): { createdAt: number; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const decoded = activityCursorSchema.safeParse(parsedJson(Buffer.from(cursor, "base64url").toString()));
  if (!decoded.success)
    throw new HttpError(400, "badRequest", "cursor: not a cursor of this list", { field: "cursor" });
  const [createdAt, id] = decoded.data;
  return { createdAt, id };
}

/** How entries recorded before changes carried their details were stored. */
type StoredEntry = Omit<ActivityEntry, "changes"> & { changes?: (Change | ActivityChange)[] };

/**
 * Entries recorded before changes carried details hold bare change kinds, and an invitation's
 * identity or a joined organization beside the entry's subject. They read as the newer form: the
 * one change of such an entry gets what stood beside the subject.
 */
function currentForm(stored: StoredEntry): ActivityEntry {
  const { changes, ...entry } = stored;
  if (!changes) return entry;
  const legacy = changes.length === 1 && typeof changes[0] === "string" ? changes[0] : undefined;
  if (legacy && entry.type === "organizationUpdate" && entry.identities) {
    const { identities, ...rest } = entry;
    return { ...rest, changes: [{ kind: legacy, identities }] };
  }
  if (legacy && entry.type === "identityUpdate" && entry.organizations) {
    const { organizations, ...rest } = entry;
    return { ...rest, changes: [{ kind: legacy, organizations }] };
  }
  return {
    ...entry,
    changes: changes.map((change) => (typeof change === "string" ? { kind: change } : change)),
  };
}

export function toActivity(row: { id: string; document: string; createdAt: number }): Activity {
  return {
    ...currentForm(JSON.parse(row.document) as StoredEntry),
    id: row.id,
    timestamp: new Date(row.createdAt).toISOString(),
  };
}

/** A page of entries from one more row than a page: the entries, and the cursor of the next page if any. */
async function page(
  rows: readonly ActivityRow[],
  named: (entries: Activity[]) => Promise<Activity[]>,
  size = activityPageSize,
): Promise<{ items: Activity[]; next?: string }> {
  const items = await named(rows.slice(0, size).map(toActivity));
  const last = rows[size - 1];
  return rows.length > size && last ? { items, next: encodeCursor(last.createdAt, last.id) } : { items };
}

/**
 * A page of the caller's activity, newest first, with names as the caller may see them: of one
 * category, or of any of several, in pages of `limit` entries (at most a page's size).
 */
export async function activityPage(
  db: Database,
  caller: Caller,
  query: {
    cursor?: string | undefined;
    category?: ActivityCategory | undefined;
    categories?: readonly ActivityCategory[] | undefined;
    limit?: number | undefined;
  },
): Promise<{ items: Activity[]; next?: string }> {
  const size = Math.min(query.limit ?? activityPageSize, activityPageSize);
  const rows = await activitiesOf(db, caller.accountId, size + 1, {
    before: decodeCursor(query.cursor),
    category: query.category,
    categories: query.categories,
  });
  return page(rows, (entries) => withNames(db, caller, entries), size);
}

/**
 * A page of an organization's activity for its admins, newest first, of one category or concerning
 * one member (by organization-scoped ID), with everything named as the organization sees it.
 */
export async function organizationActivityPage(
  db: Database,
  caller: Caller,
  organization: ScopeOrganization,
  query: {
    cursor?: string | undefined;
    category?: ActivityCategory | undefined;
    identity?: string | undefined;
  },
): Promise<{ items: Activity[]; next?: string }> {
  const rows = await activitiesOfOrganization(db, organization.id, activityPageSize + 1, {
    before: decodeCursor(query.cursor),
    category: query.category,
    membershipId: query.identity,
  });
  return page(rows, (entries) => withNames(db, caller, entries, organization));
}
