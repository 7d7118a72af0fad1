import type { Caller } from "./caller.ts";
import { accountOfShare } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import {
  findIdentities,
  identitiesReachedBy,
  identitiesReadBy,
  type IdentityReading,
  type IdentityRow,
  type IdentityReached,
} from "../store/identities.ts";

export type Access = "admin" | "user";

/**
 * The identities an account can reach and how: those it created and that still list themselves as
 * admin, and those their admins shared with the account; then, transitively, every identity that lists
 * a reached identity among its admins or users. Admin access wins over use.
 */
export async function accessibleIdentities(db: Database, accountId: string): Promise<Map<string, Access>> {
  const access = new Map<string, Access>();
  for (const { identityId, role } of await identitiesReachedBy(db, accountId))
    if (access.get(identityId) !== "admin") access.set(identityId, role);
  return access;
}

/**
 * The identities the account can reach (accessibleIdentities), read, newest first, in one query; for
 * an application, with how each stands in its organization.
 */
export async function reachableIdentities(
  db: Database,
  accountId: string,
  reading: IdentityReading = {},
  app?: { organizationId: string; applicationId: string },
): Promise<{
  access: Map<string, Access>;
  identities: IdentityRow[];
  inApp: Map<string, Pick<IdentityReached, "membership" | "blockNotes">>;
}> {
  const read = await identitiesReadBy(db, accountId, reading, app);
  const access = new Map(
    read.map(({ identity, roles }): [string, Access] => [
      identity.id,
      roles.includes("admin") ? "admin" : "user",
    ]),
  );
  const inApp = new Map(
    read.map(({ identity, membership, blockNotes }) => [identity.id, { membership, blockNotes }]),
  );
  return { access, identities: read.map(({ identity }) => identity), inApp };
}

/**
 * For a console caller whose identity is not among a document's `admins`: those of the identities its
 * account administers that are. The caller may learn this without being an admin, since it could sign
 * in with any of them and see the admins itself. Undefined for anybody else (nothing to say).
 */
export async function ownAdminIdentities(
  db: Database,
  caller: Caller | undefined,
  admins: readonly string[],
): Promise<string[] | undefined> {
  if (caller?.identityId === undefined || admins.includes(caller.identityId)) return undefined;
  const access = await accessibleIdentities(db, caller.accountId);
  return admins.filter((admin) => access.get(admin) === "admin");
}

/**
 * The accounts that can reach an identity (accessibleIdentities the other way round): the creators
 * of the identity and of the identities among its admins and users, transitively, and the accounts
 * they were shared with, that do reach it.
 */
export async function accountsWithAccess(db: Database, identityId: string): Promise<string[]> {
  const seen = new Set<string>([identityId]);
  const candidates = new Set<string>();
  let frontier = [identityId];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const identity of await findIdentities(db, frontier)) {
      if (identity.creatorAccountId) candidates.add(identity.creatorAccountId);
      for (const share of identity.document.shares ?? []) {
        const accountId = await accountOfShare(db, share);
        if (accountId) candidates.add(accountId);
      }
      for (const member of [...identity.document.admins, ...identity.document.users]) {
        if (seen.has(member)) continue;
        seen.add(member);
        next.push(member);
      }
    }
    frontier = next;
  }
  const reaching: string[] = [];
  for (const accountId of candidates)
    if ((await accessibleIdentities(db, accountId)).has(identityId)) reaching.push(accountId);
  return reaching.sort();
}
