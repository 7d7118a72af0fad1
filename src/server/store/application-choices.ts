import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";

/** The identity a person chose for an application, as the application's organization knows it. */
export interface ApplicationChoice {
  accountId: string;
  organizationId: string;
  applicationId: string;
  /** The identity's membership of the organization: the app's `sub` for the person. */
  membershipId: string;
  /** The scopes the person agreed to give the app with it. */
  scopes: readonly string[];
}

const choiceQuery = preparedQuery((db: Database, accountId: string, applicationId: string) =>
  db
    .selectFrom("application_choices")
    .select(["organization_id", "membership_id", "scopes"])
    .where("account_id", "=", accountId)
    .where("application_id", "=", applicationId),
);

export async function findApplicationChoice(
  db: Database,
  accountId: string,
  applicationId: string,
): Promise<ApplicationChoice | undefined> {
  const [row] = (await choiceQuery(db, accountId, applicationId)).rows;
  return (
    row && {
      accountId,
      applicationId,
      organizationId: row.organization_id,
      membershipId: row.membership_id,
      scopes: splitScopes(row.scopes),
    }
  );
}

export const splitScopes = (scopes: string) => scopes.split(" ").filter((scope) => scope !== "");

export async function saveApplicationChoice(db: Database, choice: ApplicationChoice, now: number) {
  const values = {
    organization_id: choice.organizationId,
    membership_id: choice.membershipId,
    scopes: choice.scopes.join(" "),
    chosen_at: now,
  };
  await db
    .insertInto("application_choices")
    .values({ account_id: choice.accountId, application_id: choice.applicationId, ...values })
    .onConflict((conflict) => conflict.columns(["account_id", "application_id"]).doUpdateSet(values))
    .execute();
}

/** Forgets the identity and scopes the person chose for the application: its next sign-in asks again. */
export async function deleteApplicationChoice(
  db: Database,
  accountId: string,
  applicationId: string,
): Promise<void> {
  await db
    .deleteFrom("application_choices")
    .where("account_id", "=", accountId)
    .where("application_id", "=", applicationId)
    .execute();
}
