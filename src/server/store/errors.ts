/** Whether a write failed because a row with the same unique key exists (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // PostgreSQL's unique_violation; SQLite's SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY.
  return code === "23505" || errcode === 2067 || errcode === 1555;
}
