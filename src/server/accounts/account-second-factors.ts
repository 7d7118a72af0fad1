import type { Account } from "../../common/api/account.ts";
import type { TotpSetUp } from "../../common/api/second-factor.ts";
import { recordActivity } from "../activity/activity.ts";
import { isRefusal, limitStore, releaseAll, reserveAll, secondFactorGuessBucket } from "../flow/throttle.ts";
import { HttpError, TooManyRequestsError } from "../http/errors.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import {
  credentialsOf,
  deleteCredentialsOf,
  inAccountTransaction,
  type StoredCredential,
} from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import { accountName, accountView } from "./account-passkeys.ts";
import { passkeyProvider } from "./passkeys.ts";
import { newRecoveryCodes, recoveryCodesProvider } from "./recovery-codes.ts";
import { openTotpSetUp, startTotpSetUp, stepOfCode, totpCredential, totpProvider } from "./totp.ts";

// A signed-in person's second factors on the account page: an authenticator app set up (one per
// account) and removed, and recovery codes made anew. The routes only check who calls.

export interface SecondFactorDeps {
  db: Database;
  secrets: InstanceSecrets;
  title: string;
}

/** What authenticator apps show the account under. */
const totpIssuer = "Vrata";

const hasTotp = (credentials: readonly StoredCredential[]) =>
  credentials.some(({ provider }) => provider === totpProvider);

const totpExists = () =>
  new HttpError(409, "totpExists", "the account has an authenticator app; remove it to set up another");

/** A new authenticator app's secret, sealed into a set-up token only this account can confirm. */
export async function startAccountTotpSetUp(deps: SecondFactorDeps, accountId: string): Promise<TotpSetUp> {
  const credentials = await credentialsOf(deps.db, accountId);
  if (hasTotp(credentials)) throw totpExists();
  return startTotpSetUp(deps.secrets.sealer, accountId, {
    issuer: totpIssuer,
    label: accountName(credentials) ?? deps.title,
  });
}

/**
 * Stores the authenticator app once its first code is right. The guess is reserved in the store
 * before the code is compared, so codes sent at once cannot pass the limit; a right one gives its
 * unit back. An account without recovery codes gets them with it, shown once.
 */
export async function completeAccountTotpSetUp(
  deps: SecondFactorDeps,
  accountId: string,
  body: { setUpToken: string; code: string },
): Promise<Account & { recoveryCodes?: string[] }> {
  const seed = openTotpSetUp(deps.secrets.sealer, accountId, body.setUpToken);
  if (seed === undefined)
    throw new HttpError(400, "totpSetUpExpired", "start setting up the authenticator app again");
  const limits = limitStore(deps);
  const reserved = await reserveAll(limits, [secondFactorGuessBucket(accountId)]);
  if (isRefusal(reserved))
    throw new TooManyRequestsError(
      "too many codes tried for this account; try again later",
      Math.ceil(reserved.retryAfterMs / 1000),
    );
  const step = await stepOfCode(seed, body.code);
  if (step === undefined) throw new HttpError(400, "invalidTotpCode", "the code is not right");
  await releaseAll(limits, reserved);
  const totp = totpCredential(deps.secrets.sealer, accountId, seed, step);
  const recoveryCodes = await inAccountTransaction(deps.db, accountId, async (trx) => {
    const credentials = await credentialsOf(trx, accountId);
    if (hasTotp(credentials)) throw totpExists();
    const now = Date.now();
    await totp.store(trx, now);
    // Recovery codes come with the first second factor; an account that has some keeps them.
    if (credentials.some(({ provider }) => provider === recoveryCodesProvider)) return undefined;
    const made = newRecoveryCodes(deps.secrets.recoveryCodes, accountId);
    await made.store(trx, now);
    return made.codes;
  });
  await recordActivity(deps.db, accountId, {
    type: "credentialAdd",
    providers: [totpProvider],
    credential: { id: totp.id, name: "" },
  });
  return { ...(await accountView(deps.db, accountId)), ...(recoveryCodes ? { recoveryCodes } : {}) };
}

/**
 * Removes the authenticator app, and the recovery codes with it unless the account keeps passkeys,
 * which still serve as a second factor where one is asked for (and the codes as their fallback).
 */
export async function removeTotp(
  deps: SecondFactorDeps,
  accountId: string,
  totp: StoredCredential,
): Promise<Account> {
  const removed = await inAccountTransaction(deps.db, accountId, async (trx) => {
    const deleted = await deleteCredentialsOf(trx, accountId, [totpProvider]);
    const passkeys = await credentialsOf(trx, accountId, passkeyProvider);
    if (deleted > 0 && passkeys.length === 0)
      await deleteCredentialsOf(trx, accountId, [recoveryCodesProvider]);
    return deleted > 0;
  });
  if (!removed) throw new HttpError(404, "notFound", "no such credential");
  await recordActivity(deps.db, accountId, {
    type: "credentialRemove",
    providers: [totpProvider],
    credential: { id: totp.id, name: "" },
  });
  return accountView(deps.db, accountId);
}

/** New recovery codes, shown once; the earlier ones stop working. Only for an account with a second factor. */
export async function regenerateRecoveryCodes(
  deps: SecondFactorDeps,
  accountId: string,
): Promise<{ recoveryCodes: string[] }> {
  const made = newRecoveryCodes(deps.secrets.recoveryCodes, accountId);
  await inAccountTransaction(deps.db, accountId, async (trx) => {
    const credentials = await credentialsOf(trx, accountId);
    if (!credentials.some(({ provider }) => provider === totpProvider || provider === passkeyProvider))
      throw new HttpError(409, "noSecondFactor", "set up an authenticator app or a passkey first");
    await made.store(trx, Date.now());
  });
  await recordActivity(deps.db, accountId, { type: "credentialUpdate", providers: [recoveryCodesProvider] });
  return { recoveryCodes: made.codes };
}
