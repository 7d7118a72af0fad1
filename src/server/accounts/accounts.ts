import { randomBytes } from "node:crypto";
import { newId } from "../ids.ts";
import { inTransaction, type Database } from "../store/database.ts";
import {
  credentialsOf,
  findAccountIdByCredential,
  insertAccount,
  insertCredential,
  updateCredentialData,
  type StoredCredential,
} from "../store/accounts.ts";
import type { Identifier } from "./normalize.ts";
import { passkeyRow, type NewPasskey } from "./passkeys.ts";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.ts";

export const findAccountByIdentifier = (db: Database, identifier: Identifier) =>
  findAccountIdByCredential(db, identifier.kind, identifier.key);

interface PasswordData {
  hash: string;
}

/** A hash of no one's password, verified for accounts without one (see checkPassword). */
let unusedHash: Promise<string> | undefined;

/**
 * True when one of the account's passwords matches; an outdated hash is replaced on the way. An
 * account without a password costs a verification all the same, so that the answer's timing does not
 * tell which accounts have one.
 */
export async function checkPassword(
  db: Database,
  /** The account's credentials (accountStanding): its passwords are among them. */
  accountCredentials: readonly StoredCredential[],
  password: string,
): Promise<boolean> {
  const credentials = accountCredentials.filter(({ provider }) => provider === "password");
  if (credentials.length === 0) {
    unusedHash ??= hashPassword(randomBytes(32).toString("base64url"));
    await verifyPassword(await unusedHash, password);
    return false;
  }
  for (const credential of credentials) {
    const { hash } = JSON.parse(credential.data) as PasswordData;
    if (await verifyPassword(hash, password)) {
      if (needsRehash(hash)) {
        await updateCredentialData(
          db,
          credential.id,
          JSON.stringify({ hash: await hashPassword(password) }),
          Date.now(),
        );
      }
      return true;
    }
  }
  return false;
}

export async function emailsOf(db: Database, accountId: string): Promise<string[]> {
  return (await credentialsOf(db, accountId, "email")).map((credential) => credential.displayName);
}

export interface NewCredentials {
  username?: { display: string; key: string };
  email?: { display: string; key: string };
  passwordHash?: string;
  passkey?: NewPasskey;
  upstream?: UpstreamCredential;
}

/** A person as a third-party provider names them: the provider's key and its subject. */
export interface UpstreamCredential {
  provider: string;
  subject: string;
  /** What the account page shows: the person's name or address at the provider. */
  displayName: string;
  /** What the provider said about the person when the credential was added. */
  claims: Record<string, unknown>;
}

export const upstreamCredentialRow = (id: string, accountId: string, credential: UpstreamCredential) => ({
  id,
  accountId,
  provider: credential.provider,
  providerId: credential.subject,
  displayName: credential.displayName,
  data: JSON.stringify({ claims: credential.claims }),
});

/**
 * Creates an account with the credentials it signed up with. E-mail addresses here are verified. The
 * rows go in together: in the caller's transaction, or in one of their own.
 */
export async function createAccount(
  db: Database,
  accountId: string,
  credentials: NewCredentials,
): Promise<void> {
  const now = Date.now();
  const insert = async (executor: Database) => {
    await insertAccount(executor, accountId, now);
    for (const kind of ["username", "email"] as const) {
      const identifier = credentials[kind];
      if (!identifier) continue;
      await insertCredential(
        executor,
        {
          id: newId(),
          accountId,
          provider: kind,
          providerId: identifier.key,
          displayName: identifier.display,
          data: "{}",
        },
        now,
      );
    }
    if (credentials.passwordHash) {
      await insertCredential(
        executor,
        {
          id: newId(),
          accountId,
          provider: "password",
          providerId: null,
          displayName: "default password",
          data: JSON.stringify({ hash: credentials.passwordHash }),
        },
        now,
      );
    }
    if (credentials.passkey) {
      await insertCredential(executor, passkeyRow(newId(), accountId, credentials.passkey), now);
    }
    if (credentials.upstream) {
      await insertCredential(executor, upstreamCredentialRow(newId(), accountId, credentials.upstream), now);
    }
  };
  await inTransaction(db, insert);
}
