import type { Database } from "./database.ts";

// The accounts that control identities, as access/identities.ts reaches them but the other way round
// and for many identities at once: what an organization's members list needs for a page.

/**
 * Each identity with every identity whose accounts reach it, itself included: walking from an
 * identity to its admins and users, and theirs. One row per pair.
 */
async function walkedTo(db: Database, identityIds: readonly string[]) {
  return db
    .withRecursive("reached(identity_id, through_id)", (cte) =>
      cte
        .selectFrom("identities")
        .select(["id as identity_id", "id as through_id"])
        .where("id", "in", identityIds)
        // UNION, not UNION ALL: an identity met again (an identity lists itself) ends the walk.
        .union((more) =>
          more
            .selectFrom("reached")
            .innerJoin("identity_members as member", "member.identity_id", "reached.through_id")
            .select(["reached.identity_id", "member.member_identity_id as through_id"]),
        ),
    )
    .selectFrom("reached")
    .selectAll()
    .execute();
}

/** The most identities one query of their accounts names: each is a parameter three times. */
const identitiesPerQuery = 1000;

/**
 * The accounts that reach these identities directly, each with the credentials of `providers` it has:
 * one row per identity, account and provider, and one with no provider for an account that has none.
 */
async function directControllers(db: Database, identityIds: readonly string[], providers: readonly string[]) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom("identities as own")
        .innerJoin("identity_members as self", (join) =>
          join
            .onRef("self.identity_id", "=", "own.id")
            .onRef("self.member_identity_id", "=", "own.id")
            .on("self.role", "=", "admin"),
        )
        .select(["own.id as identity_id", "own.creator_account_id as account_id"])
        .where("own.id", "in", identityIds)
        .where("own.creator_account_id", "is not", null)
        .union((shared) =>
          shared
            .selectFrom("identity_shares as share")
            .select(["share.identity_id", "share.account_id"])
            .where("share.identity_id", "in", identityIds),
        )
        .union((byAddress) =>
          byAddress
            .selectFrom("identity_address_shares as share")
            .select((eb) => [
              "share.identity_id",
              // Looked up for each share: SQLite, joining, would rather read every e-mail address.
              // None when no account has the address yet.
              eb
                .selectFrom("credentials as address")
                .select("address.account_id")
                .whereRef("address.provider_id", "=", "share.address_key")
                .where("address.provider", "=", "email")
                .as("account_id"),
            ])
            .where("share.identity_id", "in", identityIds),
        )
        .as("controller"),
    )
    .leftJoin("credentials as factor", (join) =>
      join.onRef("factor.account_id", "=", "controller.account_id").on("factor.provider", "in", providers),
    )
    .select(["controller.identity_id", "controller.account_id", "factor.provider"])
    .execute();
}

/**
 * For each identity, the accounts that can reach it (the accounts accessibleIdentities would list it
 * for), each with the credentials of `providers` it has: one row per account and provider it has, and
 * one with no provider for an account that has none. Identities no account reaches have no rows.
 *
 * An account reaches an identity it created that lists itself among its admins, one shared with it or
 * with an address of it, and then every identity listing a reached one among its admins or users; so
 * walking from an identity to its admins and users, and theirs, finds every identity whose accounts
 * reach it.
 *
 * The walk and the accounts are two queries: PostgreSQL takes a recursive walk for many times the rows
 * it starts from, and would then read whole tables of shares and credentials to join with it; given
 * the identities walked to, it looks up their few rows instead.
 */
export async function controllingAccounts(
  db: Database,
  identityIds: readonly string[],
  providers: readonly string[],
): Promise<{ identityId: string; accountId: string; provider: string | null }[]> {
  if (identityIds.length === 0) return [];
  const walked = await walkedTo(db, identityIds);
  const reaching = new Map<string, string[]>();
  for (const { identity_id, through_id } of walked)
    reaching.set(through_id, [...(reaching.get(through_id) ?? []), identity_id]);
  const walkedIds = [...reaching.keys()];
  const controllers = [];
  for (let from = 0; from < walkedIds.length; from += identitiesPerQuery)
    controllers.push(
      ...(await directControllers(db, walkedIds.slice(from, from + identitiesPerQuery), providers)),
    );
  const rows = new Map<string, { identityId: string; accountId: string; provider: string | null }>();
  for (const { identity_id: throughId, account_id: accountId, provider } of controllers) {
    if (accountId === null) continue;
    for (const identityId of reaching.get(throughId) ?? [])
      rows.set(JSON.stringify([identityId, accountId, provider]), { identityId, accountId, provider });
  }
  return [...rows.values()];
}
