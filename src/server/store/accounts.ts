import { inTransaction, type Database } from "./database.ts";
import type { ShareTarget } from "./identities.ts";
import { preparedQuery } from "./prepared.ts";
import type { CredentialTable } from "./schema.ts";

export interface CredentialRow {
  id: string;
  accountId: string;
  provider: string;
  providerId: string | null;
  displayName: string;
  data: string;
}

/** A credential as stored, with when it was added. */
export interface StoredCredential extends CredentialRow {
  createdAt: number;
  /** When it was last changed (a password set anew, say). */
  updatedAt: number;
}

const credentialColumns = [
  "id",
  "account_id",
  "provider",
  "provider_id",
  "display_name",
  "data",
  "created_at",
  "updated_at",
] as const;

function toCredential(row: Pick<CredentialTable, (typeof credentialColumns)[number]>): StoredCredential {
  return {
    id: row.id,
    accountId: row.account_id,
    provider: row.provider,
    providerId: row.provider_id,
    displayName: row.display_name,
    data: row.data,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The account that owns the credential with this lookup key, if any. */
export async function findAccountIdByCredential(
  db: Database,
  provider: string,
  providerId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("credentials")
    .select("account_id")
    .where("provider", "=", provider)
    .where("provider_id", "=", providerId)
    .executeTakeFirst();
  return row?.account_id;
}

/** The account a share is for: the one named by username, or the one that owns the e-mail address. */
export async function accountOfShare(db: Database, share: ShareTarget): Promise<string | undefined> {
  return share.accountId ?? findAccountIdByCredential(db, "email", share.addressKey);
}

/** The credential with this lookup key (a passkey's credential ID, say), with its account. */
export async function findCredential(
  db: Database,
  provider: string,
  providerId: string,
): Promise<StoredCredential | undefined> {
  const row = await db
    .selectFrom("credentials")
    .select(credentialColumns)
    .where("provider", "=", provider)
    .where("provider_id", "=", providerId)
    .executeTakeFirst();
  return row && toCredential(row);
}

export async function credentialsOf(
  db: Database,
  accountId: string,
  provider?: string,
): Promise<StoredCredential[]> {
  let query = db.selectFrom("credentials").select(credentialColumns).where("account_id", "=", accountId);
  if (provider !== undefined) query = query.where("provider", "=", provider);
  return (await query.orderBy("created_at").execute()).map(toCredential);
}

/** An account's credentials and its pending deletion: what a sign-in to it weighs. */
export interface AccountStanding {
  /** Oldest first. */
  credentials: StoredCredential[];
  /** When the account is to be deleted, while that is pending (what deletionDueAt says). */
  deletionDueAt: number | undefined;
}

/** The account's credentials and its pending deletion, in one query; undefined when there is no such account. */
export async function accountStanding(db: Database, accountId: string): Promise<AccountStanding | undefined> {
  return (await standingOf(db, accountId))?.standing;
}

/** The account a credential belongs to (findAccountIdByCredential), with its standing, in one query. */
export async function accountStandingByCredential(
  db: Database,
  provider: string,
  providerId: string,
): Promise<{ accountId: string; standing: AccountStanding } | undefined> {
  return standingOf(db, { provider, providerId });
}

const standingColumns = (db: Database) =>
  db
    .selectFrom("accounts as account")
    .leftJoin("credentials as credential", "credential.account_id", "account.id")
    .select([
      "account.id as standing_account_id",
      "account.deletion_due_at",
      ...credentialColumns.map((column) => `credential.${column}` as const),
    ])
    .orderBy("credential.created_at");

// Read at every sign-in step that names an account: prepared (prepared.ts).
const standingById = preparedQuery((db: Database, id: string) =>
  standingColumns(db).where("account.id", "=", id),
);

const standingByCredential = preparedQuery((db: Database, provider: string, providerId: string) =>
  standingColumns(db).where(
    "account.id",
    "=",
    db
      .selectFrom("credentials as key")
      .select("key.account_id")
      .where("key.provider", "=", provider)
      .where("key.provider_id", "=", providerId),
  ),
);

async function standingOf(db: Database, account: string | { provider: string; providerId: string }) {
  const { rows } = await (typeof account === "string"
    ? standingById(db, account)
    : standingByCredential(db, account.provider, account.providerId));
  const [first] = rows;
  if (!first) return undefined;
  const standing: AccountStanding = {
    credentials: rows.flatMap(({ deletion_due_at: _, standing_account_id: __, ...credential }) =>
      credential.id === null ? [] : [toCredential(credential as Parameters<typeof toCredential>[0])],
    ),
    deletionDueAt: first.deletion_due_at ?? undefined,
  };
  return { accountId: first.standing_account_id, standing };
}

const accountQuery = preparedQuery((db: Database, id: string) =>
  db.selectFrom("accounts").select("id").where("id", "=", id),
);

export async function accountExists(db: Database, id: string): Promise<boolean> {
  return (await accountQuery(db, id)).rows.length > 0;
}

export async function insertAccount(db: Database, id: string, now: number): Promise<void> {
  await db.insertInto("accounts").values({ id, created_at: now }).execute();
}

export async function insertCredential(db: Database, credential: CredentialRow, now: number): Promise<void> {
  await db
    .insertInto("credentials")
    .values({
      id: credential.id,
      account_id: credential.accountId,
      provider: credential.provider,
      provider_id: credential.providerId,
      display_name: credential.displayName,
      data: credential.data,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function updateCredentialData(
  db: Database,
  id: string,
  data: string,
  now: number,
): Promise<void> {
  await db.updateTable("credentials").set({ data, updated_at: now }).where("id", "=", id).execute();
}

/**
 * Replaces a credential's data only if it is still `before`: of requests made at once, one wins (a
 * one-time code is accepted once). True when this one did.
 */
export async function swapCredentialData(
  db: Database,
  id: string,
  before: string,
  after: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable("credentials")
    .set({ data: after, updated_at: now })
    .where("id", "=", id)
    .where("data", "=", before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function renameCredential(
  db: Database,
  accountId: string,
  id: string,
  name: string,
  now: number,
): Promise<void> {
  await db
    .updateTable("credentials")
    .set({ display_name: name, updated_at: now })
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .execute();
}

/**
 * Providers whose credentials do not sign anybody in by themselves: a username names an account, and
 * second factors only follow a first one.
 */
export const notSignInProviders = ["username", "totp", "recoveryCodes"];

/**
 * Runs `work` in a transaction that first locks the account's row (PostgreSQL holds the lock until
 * the transaction ends; SQLite runs one writing transaction at a time): changes to the account's
 * credentials made at once run one after the other and see each other's result.
 */
export function inAccountTransaction<T>(
  db: Database,
  accountId: string,
  work: (executor: Database) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable("accounts")
      .set((eb) => ({ created_at: eb.ref("created_at") }))
      .where("id", "=", accountId)
      .execute();
    return work(trx);
  });
}

/** Deletes the account's credentials of these providers; how many there were. */
export async function deleteCredentialsOf(
  db: Database,
  accountId: string,
  providers: readonly string[],
): Promise<number> {
  const result = await db
    .deleteFrom("credentials")
    .where("account_id", "=", accountId)
    .where("provider", "in", providers)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether these credentials let a person sign in: an e-mail address (a code is sent to it), a passkey
 * or a linked provider does by itself; a password only with a username to find the account by (with
 * an e-mail address, the address already signs in). One rule for every removal, and for what the
 * account page offers to remove.
 */
export function signsIn(credentials: readonly Pick<CredentialRow, "provider">[]): boolean {
  const providers = new Set(credentials.map(({ provider }) => provider));
  const byItself = [...providers].some(
    (provider) => provider !== "password" && !notSignInProviders.includes(provider),
  );
  return byItself || (providers.has("password") && providers.has("username"));
}

/**
 * Deletes the account's credential unless the account could not sign in without it; "last" when so,
 * "gone" when there is no such credential, "changed" when its data is no longer `data` (given to
 * delete only the version that was checked, a password, say). The account's row is locked first
 * (PostgreSQL holds the lock until the transaction ends; SQLite runs one writing transaction at a
 * time), so removals made at once see each other's result and cannot together remove every way.
 */
export function deleteCredentialUnlessLast(
  db: Database,
  accountId: string,
  id: string,
  data?: string,
): Promise<"deleted" | "last" | "gone" | "changed"> {
  return inAccountTransaction(db, accountId, async (trx) => {
    const credentials = await credentialsOf(trx, accountId);
    const credential = credentials.find((candidate) => candidate.id === id);
    if (!credential) return "gone";
    if (data !== undefined && credential.data !== data) return "changed";
    if (!signsIn(credentials.filter((other) => other.id !== id))) return "last";
    await trx.deleteFrom("credentials").where("id", "=", id).where("account_id", "=", accountId).execute();
    return "deleted";
  });
}

/** The account's e-mail credential of this ID becomes its primary address; false when it has none such. */
export function setPrimaryEmail(db: Database, accountId: string, id: string, now: number): Promise<boolean> {
  return inAccountTransaction(db, accountId, async (trx) => {
    const emails = await credentialsOf(trx, accountId, "email");
    if (!emails.some((email) => email.id === id)) return false;
    for (const email of emails) {
      const data = email.id === id ? JSON.stringify({ primary: true }) : "{}";
      if (email.data !== data)
        await trx
          .updateTable("credentials")
          .set({ data, updated_at: now })
          .where("id", "=", email.id)
          .execute();
    }
    return true;
  });
}

const grantEmails = preparedQuery((db: Database, grantId: string) =>
  db
    .selectFrom("grant_accounts")
    .innerJoin("credentials", "credentials.account_id", "grant_accounts.account_id")
    .select("credentials.provider_id")
    .where("grant_accounts.grant_id", "=", grantId)
    .where("credentials.provider", "=", "email"),
);

/** The e-mail addresses the account signed in under a grant has proved it owns (normalized). */
export async function emailsOfGrantAccount(db: Database, grantId: string): Promise<string[]> {
  return (await grantEmails(db, grantId)).rows.flatMap((row) => row.provider_id ?? []);
}

const accountEmails = preparedQuery((db: Database, accountId: string) =>
  db
    .selectFrom("credentials")
    .select("provider_id")
    .where("account_id", "=", accountId)
    .where("provider", "=", "email"),
);

/** The e-mail addresses the account has proved it owns (normalized). */
export async function emailsOfAccount(db: Database, accountId: string): Promise<string[]> {
  return (await accountEmails(db, accountId)).rows.flatMap((row) => row.provider_id ?? []);
}
