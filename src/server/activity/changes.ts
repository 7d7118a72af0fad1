import type { ActivityChange, Change, ChangedField } from "../../common/api/activity.ts";

// What an update changed, in the words activity is recorded in: each kind of change with what it
// was about, so the reader sees "Changed the name and description", not just "Other data".

/**
 * A value as JSON with the keys of its objects sorted: the same data stored in another key order (a
 * client that got its ID after its settings, say) compares equal.
 */
export function comparable(value: unknown): string {
  return JSON.stringify(value, (_key, part: unknown) =>
    part !== null && typeof part === "object" && !Array.isArray(part)
      ? Object.fromEntries(Object.entries(part).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : part,
  );
}

/** The "other data" change of the fields whose values differ between two versions, if any do. */
export function fieldChanges<T extends Partial<Record<ChangedField, unknown>>>(
  before: T,
  after: T,
  fields: readonly (ChangedField & keyof T)[],
): Change[] {
  const changed = fields.filter((field) => comparable(before[field]) !== comparable(after[field]));
  return changed.length > 0 ? [{ kind: "otherData", fields: changed }] : [];
}

/** Admins added and removed between two lists of admin identity IDs. */
export function adminChanges(before: readonly string[], after: readonly string[]): Change[] {
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  return [
    ...(added.length > 0
      ? [{ kind: "permissionsAdded" as const, identities: added.map((id) => ({ id })) }]
      : []),
    ...(removed.length > 0
      ? [{ kind: "permissionsRemoved" as const, identities: removed.map((id) => ({ id })) }]
      : []),
  ];
}

/** Groups what was changed by kind, in the order the kinds first appear: one change per kind. */
export function groupedChanges<T>(
  changed: readonly { kind: ActivityChange; item: T }[],
  toChange: (kind: ActivityChange, items: T[]) => Change,
): Change[] {
  const groups = new Map<ActivityChange, T[]>();
  for (const { kind, item } of changed) groups.set(kind, [...(groups.get(kind) ?? []), item]);
  return [...groups].map(([kind, items]) => toChange(kind, items));
}
