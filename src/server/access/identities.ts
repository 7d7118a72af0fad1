import type { Caller } from "./caller.ts";
import { accountOfShare } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import {
  findIdentities,
  identitiesSharedWith,
  identitiesWithMembers,
  identitiesCreatedBy,
  type IdentityRow,
} from "../store/identities.ts";

export type Access = "admin" | "user";

/**
 * The identities an account can reach and how: those it created and that still list themselves as
 * admin, and those their admins shared with the account; then, transitively, every identity that lists
 * a reached identity among its admins or users. Admin access wins over use.
 */
export async function accessibleIdentities(db: Database, accountId: string): Promise<Map<string, Access>> {
  return (await reach(db, accountId)).access;
}

/** The identities the account can reach (accessibleIdentities), read, newest first. */
export async function reachableIdentities(
  db: Database,
  accountId: string,
): Promise<{ access: Map<string, Access>; identities: IdentityRow[] }> {
  const { access, created } = await reach(db, accountId);
  // Most accounts reach only identities they created, which were read already.
  const read = created.filter((identity) => access.has(identity.id));
  const identities = read.length === access.size ? read : await findIdentities(db, [...access.keys()]);
  return { access, identities };
}

async function reach(db: Database, accountId: string) {
  const access = new Map<string, Access>();
  const created = await identitiesCreatedBy(db, accountId);
  for (const identity of created)
    if (identity.document.admins.includes(identity.id)) access.set(identity.id, "admin");
  for (const { identityId, role } of await identitiesSharedWith(db, accountId))
    if (access.get(identityId) !== "admin") access.set(identityId, role);

  let frontier = [...access.keys()];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const { identityId, memberId, role } of await identitiesWithMembers(db, frontier)) {
      // Use of an identity does not pass on admin rights over what it administers.
      const granted: Access = role === "admin" && access.get(memberId) === "admin" ? "admin" : "user";
      const current = access.get(identityId);
      if (current === "admin" || current === granted) continue;
      access.set(identityId, granted);
      next.push(identityId);
    }
    frontier = next;
  }
  return { access, created };
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
