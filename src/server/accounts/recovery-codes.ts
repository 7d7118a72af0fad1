import { randomInt } from "node:crypto";
import { recoveryCodeCount, recoveryCodeLength } from "../../common/limits.ts";
import { newId } from "../ids.ts";
import type { KeyedHash } from "../secrets/keyed-hash.ts";
import {
  credentialsOf,
  insertCredential,
  swapCredentialData,
  type StoredCredential,
} from "../store/accounts.ts";
import type { Database } from "../store/database.ts";

// Recovery codes: single-use codes for a person who lost their second factor. They are shown once;
// the store keeps only their keyed hashes, in one credential row per account, and a code is used by
// replacing that row's list only if it is unchanged (codes sent at the same moment pass once).

export const recoveryCodesProvider = "recoveryCodes";

/** Letters and digits that cannot be mistaken for one another when read or typed. */
const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";

interface RecoveryCodesData {
  /** Keyed hashes of the codes not used yet. */
  unused: string[];
}

function newCode(): string {
  const characters = Array.from({ length: recoveryCodeLength }, () => alphabet[randomInt(alphabet.length)]);
  const half = recoveryCodeLength / 2;
  return `${characters.slice(0, half).join("")}-${characters.slice(half).join("")}`;
}

/** The form a typed code is compared in: no dash, spaces or capitals. */
const canonical = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

export async function recoveryCodesOf(
  db: Database,
  accountId: string,
): Promise<StoredCredential | undefined> {
  return (await credentialsOf(db, accountId, recoveryCodesProvider))[0];
}

export const unusedCount = (credential: StoredCredential | undefined): number =>
  credential ? (JSON.parse(credential.data) as RecoveryCodesData).unused.length : 0;

/**
 * New recovery codes for the account: the codes to show once, and the write that replaces the
 * earlier ones (all of them stop working).
 */
export function newRecoveryCodes(hash: KeyedHash, accountId: string) {
  const codes = Array.from({ length: recoveryCodeCount }, newCode);
  const data: RecoveryCodesData = { unused: codes.map((code) => hash(canonical(code))) };
  return {
    codes,
    store: async (db: Database, now: number) => {
      await db
        .deleteFrom("credentials")
        .where("account_id", "=", accountId)
        .where("provider", "=", recoveryCodesProvider)
        .execute();
      await insertCredential(
        db,
        {
          id: newId(),
          accountId,
          provider: recoveryCodesProvider,
          providerId: null,
          displayName: "",
          data: JSON.stringify(data),
        },
        now,
      );
    },
  };
}

/**
 * Uses one of the account's recovery codes: true when it was unused (it is then used up). The caller
 * reserves the guess first (flow/throttle.ts).
 */
export async function useRecoveryCode(
  db: Database,
  hash: KeyedHash,
  accountId: string,
  code: string,
  now = Date.now(),
): Promise<boolean> {
  const credential = await recoveryCodesOf(db, accountId);
  if (!credential) return false;
  const typed = canonical(code);
  if (typed.length !== recoveryCodeLength) return false;
  const wanted = hash(typed);
  const data = JSON.parse(credential.data) as RecoveryCodesData;
  // Keyed hashes of random codes: comparing them in any time tells nothing of the codes.
  if (!data.unused.includes(wanted)) return false;
  const after: RecoveryCodesData = { unused: data.unused.filter((unused) => unused !== wanted) };
  return swapCredentialData(db, credential.id, credential.data, JSON.stringify(after), now);
}
