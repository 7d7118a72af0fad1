import { sql, type Kysely } from "kysely";

/**
 * The category of each activity (what its lists can be narrowed to), on the activity and on its
 * organizations' links, with an index that lists one category of an account or an organization newest
 * first. Narrowed by type instead, a list walks every entry of the account or organization to find a
 * page of a rare category. The categories of the types as they were when this migration was written:
 */
const categoryOfType = {
  signIn: "signIns",
  signOut: "signIns",
  backchannelLogoutFailed: "signIns",
  identityCreate: "identities",
  identityUpdate: "identities",
  identityBlocked: "identities",
  identityUnblocked: "identities",
  accountBlocked: "identities",
  organizationCreate: "organizations",
  organizationUpdate: "organizations",
  applicationTemplateCreate: "applicationTemplates",
  applicationTemplateUpdate: "applicationTemplates",
  credentialAdd: "signInMethods",
  credentialUpdate: "signInMethods",
  credentialRemove: "signInMethods",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("activities").addColumn("category", "text").execute();
  await db.schema.alterTable("activity_organizations").addColumn("category", "text").execute();
  const category = sql.join(
    Object.entries(categoryOfType).map(([type, name]) => sql`when ${type} then ${name}`),
    sql` `,
  );
  await sql`update activities set category = case type ${category} end`.execute(db);
  await sql`update activity_organizations set category =
    (select category from activities where activities.id = activity_organizations.activity_id)`.execute(db);

  await db.schema
    .createIndex("activities_account_category")
    .on("activities")
    .columns(["account_id", "category", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("activity_organizations_category")
    .on("activity_organizations")
    .columns(["organization_id", "category", "created_at", "activity_id"])
    .execute();
}
