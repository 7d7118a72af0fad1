import type { IdentityDocument } from "./identities.ts";
import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";

// Every token request and every sign-in asks who a token's `sub` is, through which account it signed
// in and whether the organization blocked either: one statement answers all three.

const subjectQuery = preparedQuery((db: Database, scopedId: string, grantId: string) =>
  db
    .selectFrom("identity_organizations as membership")
    .innerJoin("identities as identity", "identity.id", "membership.identity_id")
    .leftJoin("grant_accounts as grant", (join) => join.on("grant.grant_id", "=", grantId))
    .select((eb) => [
      "membership.organization_id",
      "membership.identity_id",
      "membership.active",
      "identity.document",
      "grant.account_id",
      eb
        .exists(
          eb
            .selectFrom("blocks as block")
            .select("block.id")
            .whereRef("block.organization_id", "=", "membership.organization_id")
            .where("block.lifted_at", "is", null)
            .where((inner) =>
              inner.or([
                inner("block.identity_id", "=", inner.ref("membership.identity_id")),
                inner(
                  "block.id",
                  "in",
                  inner
                    .selectFrom("block_accounts")
                    .select("block_accounts.block_id")
                    .whereRef("block_accounts.account_id", "=", "grant.account_id"),
                ),
              ]),
            ),
        )
        .as("blocked"),
    ])
    .where("membership.id", "=", scopedId),
);

/** An identity as one organization sees it: the subject of that organization's tokens. */
export interface TokenSubject {
  organizationId: string;
  identityId: string;
  active: boolean;
  document: IdentityDocument;
  /** The account that signed in for the grant, when a grant was named and is known. */
  accountId: string | undefined;
  /** A block in force covers the identity, or the account that signed in for the grant. */
  blocked: boolean;
}

/** The subject with this organization-scoped ID (a token's `sub`), as seen through the grant if any. */
export async function findTokenSubject(
  db: Database,
  scopedId: string,
  grantId: string | undefined,
): Promise<TokenSubject | undefined> {
  // No grant has an empty ID: "" joins no account, and only blocks of the identity count.
  const [row] = (await subjectQuery(db, scopedId, grantId ?? "")).rows;
  return (
    row && {
      organizationId: row.organization_id,
      identityId: row.identity_id,
      active: row.active === 1,
      document: JSON.parse(row.document) as IdentityDocument,
      accountId: row.account_id ?? undefined,
      // SQLite answers 0 or 1, PostgreSQL a boolean.
      blocked: Boolean(row.blocked),
    }
  );
}
