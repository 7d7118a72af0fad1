import type { Database } from "./database.ts";

export interface PasskeyChallenge {
  challenge: string;
  accountId: string;
  userHandle: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertPasskeyChallenge(db: Database, challenge: PasskeyChallenge): Promise<void> {
  await db
    .insertInto("passkey_challenges")
    .values({
      challenge: challenge.challenge,
      account_id: challenge.accountId,
      user_handle: challenge.userHandle,
      created_at: challenge.createdAt,
      expires_at: challenge.expiresAt,
    })
    .execute();
}

/**
 * Takes the account's challenge out of the store: it is deleted in the same statement that finds it,
 * so of answers sent at once only one gets it. Undefined when it is not the account's, was used or
 * has expired.
 */
export async function takePasskeyChallenge(
  db: Database,
  accountId: string,
  challenge: string,
  now: number,
): Promise<{ userHandle: string } | undefined> {
  const row = await db
    .deleteFrom("passkey_challenges")
    .where("challenge", "=", challenge)
    .where("account_id", "=", accountId)
    .returning(["user_handle", "expires_at"])
    .executeTakeFirst();
  return row && row.expires_at > now ? { userHandle: row.user_handle } : undefined;
}

export async function deleteExpiredPasskeyChallenges(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("passkey_challenges").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
