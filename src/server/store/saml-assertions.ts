import type { Database } from "./database.ts";

/**
 * Records the use of the assertion known by `id` (a keyed hash) until `expiresAt`, in one statement:
 * of uses at once, one only is the first. True for the first use; false while an earlier one is kept.
 */
export async function recordSamlAssertionUse(
  db: Database,
  id: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  const recorded = await db
    .insertInto("saml_assertions")
    .values({ id, expires_at: expiresAt })
    // A use that has expired and not been cleaned up yet counts as none.
    .onConflict((conflict) =>
      conflict
        .column("id")
        .doUpdateSet({ expires_at: expiresAt })
        .where("saml_assertions.expires_at", "<=", now),
    )
    .returning("id")
    .executeTakeFirst();
  return recorded !== undefined;
}

export async function deleteExpiredSamlAssertions(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("saml_assertions").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
