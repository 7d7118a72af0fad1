import { sql, type Kysely } from "kysely";

/** The identity's names folded for search, one per line, as this column held them (0014 replaced it). */
function searchTextOf(document: Record<string, unknown>): string {
  return ["username", "email", "givenName", "fullName"]
    .flatMap((field) => {
      const value = document[field];
      return typeof value === "string" && value ? [value.normalize("NFKC").toLocaleLowerCase()] : [];
    })
    .join("\n");
}

/**
 * What organization admins look up: their members newest first and by name, and what happened in
 * their organization, a page at a time.
 *
 * - `identity_organizations.last_signed_in_at`: when the member last signed in to one of the apps.
 * - `identities.search_text`: the identity's names folded for search, filled for existing rows here.
 * - `activity_organizations`: which activity is about which organization, and which member of it
 *   (by organization-scoped ID) it concerns, so an organization's list is one index range.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("identity_organizations").addColumn("last_signed_in_at", "bigint").execute();
  await db.schema
    .createIndex("identity_organizations_newest")
    .on("identity_organizations")
    .columns(["organization_id", "created_at", "id"])
    .execute();

  await db.schema.alterTable("identities").addColumn("search_text", "text").execute();
  const identities = await sql<{ id: string; document: string }>`select id, document from identities`.execute(
    db,
  );
  for (const { id, document } of identities.rows) {
    const text = searchTextOf(JSON.parse(document) as Record<string, unknown>);
    await sql`update identities set search_text = ${text} where id = ${id}`.execute(db);
  }

  await db.schema
    .createTable("activity_organizations")
    .addColumn("activity_id", "text", (c) => c.notNull().references("activities.id").onDelete("cascade"))
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("membership_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("activity_organizations_pk", ["activity_id", "organization_id"])
    .execute();
  await db.schema
    .createIndex("activity_organizations_newest")
    .on("activity_organizations")
    .columns(["organization_id", "created_at", "activity_id"])
    .execute();
  await db.schema
    .createIndex("activity_organizations_member")
    .on("activity_organizations")
    .columns(["organization_id", "membership_id", "created_at", "activity_id"])
    .execute();
}
