import { sql } from "kysely";
import type { IdentityDocument } from "./identities.ts";
import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";
import { splitScopes } from "./application-choices.ts";

// Every token request and every sign-in asks who a token's `sub` is, through which account it signed
// in and whether the organization blocked either: one statement answers all of it.

/** A block in force in the membership's organization covers its identity, or the account in `account`. */
const blocked = (account: "grant.account_id" | "choice.account_id") =>
  sql<boolean | number>`exists (
    select 1 from blocks as block
    where block.organization_id = membership.organization_id and block.lifted_at is null
      and (block.identity_id = membership.identity_id
        or block.id in (select block_id from block_accounts where account_id = ${sql.ref(account)})))`.as(
    "blocked",
  );

const subjectColumns = [
  "membership.id as membership_id",
  "membership.organization_id",
  "membership.identity_id",
  "membership.active",
  "identity.document",
] as const;

/** A token of a sign-in before accounts held single sign-on sessions: its subject is the membership. */
const membershipSubjectQuery = preparedQuery((db: Database, membershipId: string, grantId: string) =>
  db
    .selectFrom("identity_organizations as membership")
    .innerJoin("identities as identity", "identity.id", "membership.identity_id")
    .leftJoin("grant_accounts as grant", (join) => join.on("grant.grant_id", "=", grantId))
    .select([...subjectColumns, "grant.account_id", blocked("grant.account_id")])
    .where("membership.id", "=", membershipId),
);

const grantSubjectQuery = preparedQuery(
  (db: Database, accountId: string, organizationId: string, grantId: string) =>
    db
      .selectFrom("grant_accounts as grant")
      .innerJoin("identity_organizations as membership", (join) =>
        join
          .onRef("membership.identity_id", "=", "grant.identity_id")
          .on("membership.organization_id", "=", organizationId),
      )
      .innerJoin("identities as identity", "identity.id", "membership.identity_id")
      .leftJoin("accounts as account", "account.id", "grant.account_id")
      .select([...subjectColumns, "grant.account_id", blocked("grant.account_id"), "account.deletion_due_at"])
      .where("grant.grant_id", "=", grantId)
      .where("grant.account_id", "=", accountId),
);

const chosenSubjectQuery = preparedQuery((db: Database, accountId: string, applicationId: string) =>
  db
    .selectFrom("application_choices as choice")
    .innerJoin("identity_organizations as membership", "membership.id", "choice.membership_id")
    .innerJoin("identities as identity", "identity.id", "membership.identity_id")
    .select([...subjectColumns, "choice.account_id", "choice.scopes", blocked("choice.account_id")])
    .where("choice.account_id", "=", accountId)
    .where("choice.application_id", "=", applicationId),
);

/** An identity as one organization sees it: the subject of that organization's tokens. */
export interface TokenSubject {
  /** The organization-scoped identity ID: the `sub` of the organization's tokens. */
  membershipId: string;
  organizationId: string;
  identityId: string;
  active: boolean;
  document: IdentityDocument;
  /** The account that signed in, when it is known. */
  accountId: string | undefined;
  /** A block in force covers the identity, or the account that signed in. */
  blocked: boolean;
}

interface SubjectRow {
  membership_id: string;
  organization_id: string;
  identity_id: string;
  active: number;
  document: string;
  account_id: string | null;
  blocked: boolean | number;
}

const toSubject = (row: SubjectRow): TokenSubject => ({
  membershipId: row.membership_id,
  organizationId: row.organization_id,
  identityId: row.identity_id,
  active: row.active === 1,
  document: JSON.parse(row.document) as IdentityDocument,
  accountId: row.account_id ?? undefined,
  // SQLite answers 0 or 1, PostgreSQL a boolean.
  blocked: Boolean(row.blocked),
});

/** The subject with this organization-scoped ID, as seen through the grant if any. */
export async function findMembershipSubject(
  db: Database,
  membershipId: string,
  grantId: string | undefined,
): Promise<TokenSubject | undefined> {
  // No grant has an empty ID: "" joins no account, and only blocks of the identity count.
  const [row] = (await membershipSubjectQuery(db, membershipId, grantId ?? "")).rows;
  return row && toSubject(row);
}

/**
 * The identity the account signed in with for the grant, as the organization knows it, and when the
 * account is to be deleted, while that is pending (what deletionDueAt says, read with it).
 */
export async function findGrantSubject(
  db: Database,
  accountId: string,
  organizationId: string,
  grantId: string,
): Promise<(TokenSubject & { deletionDueAt: number | undefined }) | undefined> {
  const [row] = (await grantSubjectQuery(db, accountId, organizationId, grantId)).rows;
  return (
    row && {
      ...toSubject(row),
      deletionDueAt: row.deletion_due_at ?? undefined,
    }
  );
}

/** The identity the account chose for the application, with the scopes it agreed to give the app. */
export async function findChosenSubject(
  db: Database,
  accountId: string,
  applicationId: string,
): Promise<(TokenSubject & { scopes: readonly string[] }) | undefined> {
  const [row] = (await chosenSubjectQuery(db, accountId, applicationId)).rows;
  return row && { ...toSubject(row), scopes: splitScopes(row.scopes) };
}
