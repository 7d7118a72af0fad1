import type { Database } from "./database.ts";

// The accounts that control identities, as access/identities.ts reaches them but the other way round
// and for many identities in one query: what an organization's members list needs for a page.

/**
 * For each identity, the accounts that can reach it (the accounts accessibleIdentities would list it
 * for), each with the credentials of `providers` it has: one row per account and provider it has, and
 * one with no provider for an account that has none. Identities no account reaches have no rows.
 *
 * An account reaches an identity it created that lists itself among its admins, one shared with it or
 * with an address of it, and then every identity listing a reached one among its admins or users; so
 * walking from an identity to its admins and users, and theirs, finds every identity whose accounts
 * reach it.
 */
export async function controllingAccounts(
  db: Database,
  identityIds: readonly string[],
  providers: readonly string[],
): Promise<{ identityId: string; accountId: string; provider: string | null }[]> {
  if (identityIds.length === 0) return [];
  const rows = await db
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
    .with("controller", (cte) =>
      cte
        .selectFrom("reached")
        .innerJoin("identities as through", "through.id", "reached.through_id")
        .innerJoin("identity_members as own", (join) =>
          join
            .onRef("own.identity_id", "=", "through.id")
            .onRef("own.member_identity_id", "=", "through.id")
            .on("own.role", "=", "admin"),
        )
        .select(["reached.identity_id", "through.creator_account_id as account_id"])
        .where("through.creator_account_id", "is not", null)
        .union((shared) =>
          shared
            .selectFrom("reached")
            .innerJoin("identity_shares as share", "share.identity_id", "reached.through_id")
            .select(["reached.identity_id", "share.account_id"]),
        )
        .union((byAddress) =>
          byAddress
            .selectFrom("reached")
            .innerJoin("identity_address_shares as share", "share.identity_id", "reached.through_id")
            .innerJoin("credentials as address", (join) =>
              join
                .onRef("address.provider_id", "=", "share.address_key")
                .on("address.provider", "=", "email"),
            )
            .select(["reached.identity_id", "address.account_id"]),
        ),
    )
    .selectFrom("controller")
    .leftJoin("credentials as factor", (join) =>
      join.onRef("factor.account_id", "=", "controller.account_id").on("factor.provider", "in", providers),
    )
    .select(["controller.identity_id", "controller.account_id", "factor.provider"])
    .distinct()
    .execute();
  return rows.flatMap((row) =>
    row.account_id === null
      ? []
      : [{ identityId: row.identity_id, accountId: row.account_id, provider: row.provider }],
  );
}
