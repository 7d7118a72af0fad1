import { SqliteAdapter, sql } from "kysely";
import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";

// The store's part of deleting an account (accounts/account-deletion.ts decides what goes): its
// pending deletion, and the rows keyed by the account that go with it.

// Prepared: every use of a person's token (userinfo, refresh, introspection) asks it.
const deletionDue = preparedQuery((db: Database, accountId: string) =>
  db.selectFrom("accounts").select("deletion_due_at").where("id", "=", accountId),
);

/** When the account is to be deleted, while that is pending. */
export async function deletionDueAt(db: Database, accountId: string): Promise<number | undefined> {
  const [row] = (await deletionDue(db, accountId)).rows;
  return row?.deletion_due_at ?? undefined;
}

/**
 * Schedules the deletion unless one is pending already; true when this call scheduled it, so that of
 * requests made at once only one is recorded as asking for it.
 */
export async function scheduleDeletion(db: Database, accountId: string, dueAt: number): Promise<boolean> {
  const result = await db
    .updateTable("accounts")
    .set({ deletion_due_at: dueAt })
    .where("id", "=", accountId)
    .where("deletion_due_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels a pending deletion; false when none was (cancelled meanwhile, or carried out). */
export async function cancelDeletion(db: Database, accountId: string): Promise<boolean> {
  const result = await db
    .updateTable("accounts")
    .set({ deletion_due_at: null })
    .where("id", "=", accountId)
    .where("deletion_due_at", "is not", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The accounts whose grace period is over at `now`. */
export async function dueDeletions(db: Database, now: number): Promise<string[]> {
  const rows = await db
    .selectFrom("accounts")
    .select("id")
    .where("deletion_due_at", "<=", now)
    .orderBy("deletion_due_at")
    .limit(100)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes the due deletion for the transaction: the account's row is locked until it ends, so a purge
 * running at the same moment elsewhere waits and then finds nothing due. False when it is not due
 * (cancelled, or purged already).
 */
export async function claimDueDeletion(trx: Database, accountId: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable("accounts")
    .set((eb) => ({ deletion_due_at: eb.ref("deletion_due_at") }))
    .where("id", "=", accountId)
    .where("deletion_due_at", "<=", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rows whose JSON holds this ID as a string: Vrata's IDs are base58, with nothing special to LIKE. */
const holding = (id: string) => `%${JSON.stringify(id)}%`;

/**
 * Deletes what oidc-provider keeps of the account (single sign-on sessions, grants, codes, tokens,
 * interactions), returning the sessions' payloads so that their apps are told.
 */
export async function deleteOidcModelsOf(
  trx: Database,
  accountId: string,
  grantIds: readonly string[],
): Promise<{ model: string; payload: string }[]> {
  if (grantIds.length > 0) await trx.deleteFrom("oidc_models").where("grant_id", "in", grantIds).execute();
  return trx
    .deleteFrom("oidc_models")
    .where("payload", "like", holding(accountId))
    .returning(["model", "payload"])
    .execute();
}

/** The grants the account signed in with, forgotten with their record. */
export async function deleteGrantAccountsOf(trx: Database, accountId: string): Promise<string[]> {
  const rows = await trx
    .deleteFrom("grant_accounts")
    .where("account_id", "=", accountId)
    .returning("grant_id")
    .execute();
  return rows.map((row) => row.grant_id);
}

/**
 * Rows keyed by the account with no foreign key to it: flows, app choices, invitations it sent, the
 * browsers it signed in from.
 */
export async function deleteUnlinkedRowsOf(trx: Database, accountId: string): Promise<void> {
  await trx.deleteFrom("flows").where("state", "like", holding(accountId)).execute();
  await trx.deleteFrom("session_devices").where("account_id", "=", accountId).execute();
  await trx.deleteFrom("application_choices").where("account_id", "=", accountId).execute();
  await trx.deleteFrom("organization_invitations").where("invited_by_account_id", "=", accountId).execute();
  await trx.deleteFrom("address_invitations").where("invited_by_account_id", "=", accountId).execute();
}

/** Attempt counters keyed by the account or by one of its addresses (`code-send-to:<address>` ...). */
export async function deleteCountersOf(trx: Database, keys: readonly string[]): Promise<void> {
  const patterns = keys.filter((key) => key !== "").flatMap((key) => [`%:${key}`, `%:${key}:%`]);
  if (patterns.length === 0) return;
  await trx
    .deleteFrom("attempt_counters")
    .where((eb) => eb.or(patterns.map((pattern) => eb("key", "like", pattern))))
    .execute();
}

/** Invitations sent to the account's addresses: the addresses go with it. */
export async function deleteAddressInvitationsTo(
  trx: Database,
  addressKeys: readonly string[],
): Promise<void> {
  if (addressKeys.length === 0) return;
  await trx.deleteFrom("address_invitations").where("address_key", "in", addressKeys).execute();
}

/**
 * The account's activity: what concerns no organization goes; what organizations keep of it (their
 * members' sign-ins, say) stays theirs, no longer the account's, and `scrub` rewrites its document.
 */
export async function releaseActivitiesOf(
  trx: Database,
  accountId: string,
  scrub: (document: string) => string,
): Promise<void> {
  await trx
    .deleteFrom("activities")
    .where("account_id", "=", accountId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("activity_organizations")
            .select("activity_id")
            .whereRef("activity_organizations.activity_id", "=", "activities.id"),
        ),
      ),
    )
    .execute();
  const kept = await trx
    .selectFrom("activities")
    .select(["id", "document"])
    .where("account_id", "=", accountId)
    .execute();
  for (const { id, document } of kept)
    await trx
      .updateTable("activities")
      .set({ account_id: null, document: scrub(document) })
      .where("id", "=", id)
      .execute();
}

/** Other entries whose document names one of `words` (a person an identity was shared with). */
export async function activitiesNaming(
  trx: Database,
  words: readonly string[],
): Promise<{ id: string; document: string }[]> {
  if (words.length === 0) return [];
  return trx
    .selectFrom("activities")
    .select(["id", "document"])
    .where((eb) =>
      eb.or(
        words.map((word) => eb(eb.fn("lower", ["document"]), "like", `%${likeEscaped(word.toLowerCase())}%`)),
      ),
    )
    .execute();
}

const likeEscaped = (text: string) => text.replace(/[%_\\]/g, "");

export async function replaceActivityDocument(trx: Database, id: string, document: string): Promise<void> {
  await trx.updateTable("activities").set({ document }).where("id", "=", id).execute();
}

/** The account's row goes, and with it (foreign keys) its credentials, sessions, shares and the rest. */
export async function deleteAccountRow(trx: Database, accountId: string): Promise<void> {
  await trx.deleteFrom("accounts").where("id", "=", accountId).execute();
}

/** Identities that list `identityId` among their admins or users. */
export async function identitiesListing(db: Database, identityId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("identity_members")
    .select("identity_id")
    .where("member_identity_id", "=", identityId)
    .where("identity_id", "!=", identityId)
    .execute();
  return [...new Set(rows.map((row) => row.identity_id))];
}

/** An identity no account controls any longer goes, with its memberships, shares and search words. */
export async function deleteIdentityRow(trx: Database, identityId: string): Promise<void> {
  await trx.deleteFrom("identities").where("id", "=", identityId).execute();
}

/** An identity others keep no longer names the account as the one that created it. */
export async function forgetCreator(trx: Database, identityId: string): Promise<void> {
  await trx
    .updateTable("identities")
    .set({ creator_account_id: null })
    .where("id", "=", identityId)
    .execute();
}

/**
 * On SQLite, what was deleted leaves the files too: secure_delete (sqlite.ts) zeroes the freed
 * space, and this checkpoint copies the WAL into the database and empties it, so the WAL keeps no
 * page as it was before. PostgreSQL keeps no deleted row in what it dumps or serves.
 */
export async function flushDeleted(db: Database): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}
