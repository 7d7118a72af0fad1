import type { FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import type { AccountDeletion } from "../../common/api/account-deletion.ts";
import { accountsWithAccess, accessibleIdentities } from "../access/identities.ts";
import { requireFreshSignIn } from "../access/fresh-sign-in.ts";
import { recordActivity, type ActivityEntry } from "../activity/activity.ts";
import { HttpError } from "../http/errors.ts";
import type { BackchannelLogouts, EndedSession } from "../oidc/backchannel-logout.ts";
import {
  activitiesNaming,
  cancelDeletion,
  claimDueDeletion,
  deleteAccountRow,
  deleteAddressInvitationsTo,
  deleteCountersOf,
  deleteGrantAccountsOf,
  deleteIdentityRow,
  deleteOidcModelsOf,
  deleteUnlinkedRowsOf,
  deletionDueAt,
  dueDeletions,
  flushDeleted,
  forgetCreator,
  identitiesListing,
  releaseActivitiesOf,
  replaceActivityDocument,
  scheduleDeletion,
} from "../store/account-deletion.ts";
import { credentialsOf, type StoredCredential } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import { findDocuments, replaceDocument, type DocumentTableName } from "../store/documents.ts";
import {
  findIdentity,
  membershipsOf,
  updateIdentityDocument,
  type IdentityDocument,
} from "../store/identities.ts";
import { destroySessionsOf } from "../store/oidc-models.ts";
import { accountName } from "./account-passkeys.ts";

// Deleting an account (spec, the account page): its person asks after a fresh sign-in, and it stays
// for a grace period during which signing in offers to keep it; then the background cleanup deletes
// it with what only it held. Identities shared with other people stay theirs; those only it
// controlled leave their organizations, which are told "identity removed" and nothing more.

export interface DeletionDeps {
  db: Database;
  provider: Provider;
}

const dayMs = 24 * 60 * 60 * 1000;

/** What an account with neither a username nor an e-mail address types to confirm. */
export const deleteWord = "DELETE";

/** What the person types to confirm: their username or e-mail address, as the page shows it. */
const confirmationOf = (credentials: readonly StoredCredential[]) => accountName(credentials) ?? deleteWord;

/** The account's deletion as its page shows it; `graceDays` as configured (`--account-deletion-grace-days`). */
export async function deletionView(
  db: Database,
  graceDays: number,
  accountId: string,
): Promise<AccountDeletion> {
  const [credentials, dueAt] = await Promise.all([
    credentialsOf(db, accountId),
    deletionDueAt(db, accountId),
  ]);
  return {
    confirmWith: confirmationOf(credentials),
    graceDays,
    ...(dueAt === undefined ? {} : { dueAt: new Date(dueAt).toISOString() }),
  };
}

/**
 * Schedules the account's deletion at the end of the grace period, once the person signed in within
 * the last minutes and typed what the page asked. Asking again while it is pending changes nothing.
 */
export async function requestDeletion(
  deps: DeletionDeps,
  graceDays: number,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  confirmation: string,
): Promise<AccountDeletion> {
  const expected = confirmationOf(await credentialsOf(deps.db, accountId));
  if (confirmation.normalize("NFC").toLowerCase() !== expected.normalize("NFC").toLowerCase())
    throw new HttpError(400, "deletionNotConfirmed", "type what the page asks to confirm the deletion");
  await requireFreshSignIn(deps, request, reply, accountId);
  const now = Date.now();
  if (await scheduleDeletion(deps.db, accountId, now + graceDays * dayMs))
    await recordActivity(deps.db, accountId, { type: "accountDeletionRequested" });
  return deletionView(deps.db, graceDays, accountId);
}

/** Keeps the account: its pending deletion is cancelled (409 when none is pending). */
export async function keepAccount(db: Database, accountId: string): Promise<void> {
  if (!(await cancelDeletion(db, accountId)))
    throw new HttpError(409, "deletionNotPending", "the account is not pending deletion");
  await recordActivity(db, accountId, { type: "accountDeletionCancelled" });
}

export interface PurgeDeps {
  db: Database;
  logouts: BackchannelLogouts;
}

/**
 * Deletes the accounts whose grace period is over at `now`; how many it deleted. One that fails (an
 * identity changed while it ran, say) is left whole for the next run, and the others go on.
 */
export async function purgeDueDeletions(deps: PurgeDeps, now: number): Promise<number> {
  let purged = 0;
  const failures: unknown[] = [];
  for (const accountId of await dueDeletions(deps.db, now)) {
    try {
      if (await purgeAccount(deps, accountId, now)) purged += 1;
    } catch (error) {
      failures.push(error);
    }
  }
  if (purged > 0) await flushDeleted(deps.db);
  if (failures.length > 0)
    throw new AggregateError(failures, "deleting accounts whose deletion is due failed");
  return purged;
}

/** A document the purge rewrites was changed meanwhile: the whole purge is undone, to run again. */
function changedMeanwhile(saved: boolean): void {
  if (!saved)
    throw new Error("a document changed while the account was deleted; it is deleted at the next run");
}

/**
 * Deletes one account whose deletion is due; false when it is not (cancelled, or another instance
 * deleted it first). Its single sign-on sessions end first and their apps are told (back-channel
 * logout needs the grants to name the person as each app knows them); the rest goes in one
 * transaction, which holds the account's row from the start so that two purges never run at once.
 */
async function purgeAccount(deps: PurgeDeps, accountId: string, now: number): Promise<boolean> {
  const dueAt = await deletionDueAt(deps.db, accountId);
  if (dueAt === undefined || dueAt > now) return false;
  const ended = (await destroySessionsOf(deps.db, [accountId])).map(
    (payload) => JSON.parse(payload) as EndedSession,
  );
  await Promise.all(ended.map((session) => deps.logouts.announce(session)));
  return deps.db.transaction().execute(async (trx) => {
    if (!(await claimDueDeletion(trx, accountId, now))) return false;
    const credentials = await credentialsOf(trx, accountId);
    const addressKeys = credentials.flatMap(({ provider, providerId }) =>
      provider === "email" && providerId !== null ? [providerId] : [],
    );
    const names = credentials.flatMap(({ provider, displayName, providerId }) =>
      provider === "email" || provider === "username" ? [displayName, providerId ?? displayName] : [],
    );
    await releaseIdentities(trx, accountId, addressKeys);
    await deleteOidcModelsOf(trx, accountId, await deleteGrantAccountsOf(trx, accountId));
    await deleteUnlinkedRowsOf(trx, accountId);
    await deleteAddressInvitationsTo(trx, addressKeys);
    await deleteCountersOf(trx, [accountId, ...new Set(names.map((name) => name.toLowerCase()))]);
    await releaseActivitiesOf(trx, accountId, (document) => released(document, names));
    for (const { id, document } of await activitiesNaming(trx, names)) {
      const kept = withoutPeople(document, names);
      if (kept !== document) await replaceActivityDocument(trx, id, kept);
    }
    await deleteAccountRow(trx, accountId);
    return true;
  });
}

/** An entry without the people (usernames, addresses an identity was shared by) that are the account's. */
function withoutPeople(document: string, names: readonly string[]): string {
  const lowered = new Set(names.map((name) => name.toLowerCase()));
  const entry = JSON.parse(document) as ActivityEntry;
  if (!entry.changes?.some(({ people }) => people?.some((person) => lowered.has(person.toLowerCase()))))
    return document;
  const changes = entry.changes.map(({ people, ...change }) => {
    const kept = people?.filter((person) => !lowered.has(person.toLowerCase()));
    return kept === undefined || kept.length === 0 ? change : { ...change, people: kept };
  });
  return JSON.stringify({ ...entry, changes });
}

/** An entry of the account's that an organization keeps: without its people, nor the sign-in method's name. */
function released(document: string, names: readonly string[]): string {
  const { credential: _credential, ...entry } = JSON.parse(withoutPeople(document, names)) as ActivityEntry;
  return JSON.stringify(entry);
}

/**
 * The identities the account reaches: each that another account also reaches stays with it, without
 * the account; each that only it reached leaves every organization and goes.
 */
async function releaseIdentities(trx: Database, accountId: string, addressKeys: readonly string[]) {
  const reached = [...(await accessibleIdentities(trx, accountId)).keys()];
  const created = await trx
    .selectFrom("identities")
    .select("id")
    .where("creator_account_id", "=", accountId)
    .execute();
  const kept: string[] = [];
  const removed: string[] = [];
  for (const identityId of new Set([...reached, ...created.map((row) => row.id)])) {
    const others = (await accountsWithAccess(trx, identityId)).filter((other) => other !== accountId);
    (others.length > 0 ? kept : removed).push(identityId);
  }
  for (const identityId of removed) await removeIdentity(trx, identityId);
  for (const identityId of kept) await keepWithOthers(trx, identityId, accountId, addressKeys);
}

/**
 * An identity nobody else controls: each organization it is a member of records "identity removed"
 * (about its member, by the ID the organization knows it by, and nothing else), organizations and
 * templates it administered and identities that listed it forget it, and it goes.
 */
async function removeIdentity(trx: Database, identityId: string): Promise<void> {
  for (const membership of await membershipsOf(trx, identityId))
    await recordActivity(trx, null, { type: "identityRemoved" }, [
      { organizationId: membership.organizationId, membershipId: membership.id },
    ]);
  for (const table of ["organizations", "application_templates"] as const)
    await forgetAdmin(trx, table, identityId);
  for (const listing of await identitiesListing(trx, identityId)) {
    const identity = await findIdentity(trx, listing);
    if (!identity) continue;
    const { document } = identity;
    changedMeanwhile(
      await updateIdentityDocument(
        trx,
        listing,
        identity.version,
        {
          ...document,
          admins: document.admins.filter((id) => id !== identityId),
          users: document.users.filter((id) => id !== identityId),
        },
        Date.now(),
      ),
    );
  }
  await deleteIdentityRow(trx, identityId);
}

/** Organizations and templates administered by the identity no longer list it among their admins. */
async function forgetAdmin(trx: Database, table: DocumentTableName, identityId: string): Promise<void> {
  const rows = await trx
    .selectFrom(table)
    .select("id")
    .where("document", "like", `%${JSON.stringify(identityId)}%`)
    .execute();
  const documents = await findDocuments<{ admins?: string[] }>(
    trx,
    table,
    rows.map((row) => row.id),
  );
  for (const stored of documents) {
    const admins = stored.document.admins;
    if (!admins?.includes(identityId)) continue;
    const document = { ...stored.document, admins: admins.filter((id) => id !== identityId) };
    changedMeanwhile(await replaceDocument(trx, table, stored.id, stored.version, document, Date.now()));
  }
}

/**
 * An identity other people also use stays theirs: it is no longer shared with the account or its
 * addresses, nor counts it as its creator. Were the account its only admin, the people it was shared
 * with become its admins: otherwise nobody could ever change, share or remove it again.
 */
async function keepWithOthers(
  trx: Database,
  identityId: string,
  accountId: string,
  addressKeys: readonly string[],
): Promise<void> {
  const identity = await findIdentity(trx, identityId);
  if (!identity) return;
  const shares = identity.document.shares?.filter(
    (share) =>
      share.accountId !== accountId &&
      (share.addressKey === undefined || !addressKeys.includes(share.addressKey)),
  );
  const document: IdentityDocument = { ...identity.document, ...(shares ? { shares } : {}) };
  changedMeanwhile(await updateIdentityDocument(trx, identityId, identity.version, document, Date.now()));
  if (identity.creatorAccountId === accountId) await forgetCreator(trx, identityId);
  const others = (await accountsWithAccess(trx, identityId)).filter((other) => other !== accountId);
  for (const other of others)
    if ((await accessibleIdentities(trx, other)).get(identityId) === "admin") return;
  const after = await findIdentity(trx, identityId);
  if (!after) return;
  const promoted: IdentityDocument = {
    ...after.document,
    admins: [...new Set([...after.document.admins, ...after.document.users])],
    ...(after.document.shares
      ? { shares: after.document.shares.map((share) => ({ ...share, role: "admin" as const })) }
      : {}),
  };
  changedMeanwhile(await updateIdentityDocument(trx, identityId, after.version, promoted, Date.now()));
}
