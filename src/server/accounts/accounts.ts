import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import {
  credentialsOf,
  findAccountIdByCredential,
  insertAccount,
  insertCredential,
  updateCredentialData,
} from "../store/accounts.ts";
import type { Identifier } from "./normalize.ts";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.ts";

export const findAccountByIdentifier = (db: Database, identifier: Identifier) =>
  findAccountIdByCredential(db, identifier.kind, identifier.key);

interface PasswordData {
  hash: string;
}

/** True when one of the account's passwords matches; an outdated hash is replaced on the way. */
export async function checkPassword(db: Database, accountId: string, password: string): Promise<boolean> {
  for (const credential of await credentialsOf(db, accountId, "password")) {
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
}

/** Creates an account with the credentials it signed up with. E-mail addresses here are verified. */
export async function createAccount(db: Database, credentials: NewCredentials): Promise<string> {
  const accountId = newId();
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await insertAccount(trx, accountId, now);
    for (const kind of ["username", "email"] as const) {
      const identifier = credentials[kind];
      if (!identifier) continue;
      await insertCredential(
        trx,
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
        trx,
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
  });
  return accountId;
}
