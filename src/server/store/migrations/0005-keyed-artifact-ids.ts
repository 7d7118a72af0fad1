import { sql, type Kysely } from "kysely";

/**
 * From this version the store keeps oidc-provider's artifacts under the keyed hash of their IDs, and
 * flow session secrets and e-mail codes under keyed hashes too (secrets/). What earlier versions
 * stored under the plain values can no longer be found, and its readable tokens, cookies and codes
 * are what this change keeps out of the store: they are removed. Everyone signs in again, and apps
 * holding refresh tokens start a new authorization.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["oidc_models", "sessions", "flows"]) {
    await sql`delete from ${sql.table(table)}`.execute(db);
  }
}
