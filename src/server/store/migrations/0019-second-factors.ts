import { sql, type Kysely } from "kysely";

/**
 * Second factors are credentials (providers `totp` and `recoveryCodes`): one authenticator app and one
 * set of recovery codes per account, which the store itself holds to however many requests set them
 * up at the same moment. Instances of earlier versions do not know second factors: this migration also
 * tells them that the store has moved on (they answer not ready), so that none signs a person in on
 * the first factor alone during an upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, provider] of [
    ["credentials_one_totp", "totp"],
    ["credentials_one_recovery_codes", "recoveryCodes"],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on("credentials")
      .column("account_id")
      .unique()
      .where(sql.ref("provider"), "=", provider)
      .execute();
  }
}
