import { timingSafeEqual } from "node:crypto";
import type { Account } from "../../common/api/account.ts";
import { codeLifetimeMs, maxFlowAttempts, type Locale } from "../../common/limits.ts";
import { recordActivity } from "../activity/activity.ts";
import { hashCode, newCode, typedCode } from "../flow/code.ts";
import {
  codeGuessBucket,
  codeSendBuckets,
  isRefusal,
  limitStore,
  passwordGuessBucket,
  releaseAll,
  reserveAll,
  type Reservation,
} from "../flow/throttle.ts";
import { HttpError, TooManyRequestsError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { addressCodeMessage } from "../mail/address-code-message.ts";
import { MailUnavailableError, type Mailer } from "../mail/mailer.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import {
  credentialsOf,
  findAccountIdByCredential,
  inAccountTransaction,
  insertCredential,
  setPrimaryEmail,
  type StoredCredential,
} from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import {
  deleteEmailVerification,
  findEmailVerification,
  replaceEmailVerification,
  takeEmailVerification,
} from "../store/email-verifications.ts";
import { isUniqueViolation } from "../store/errors.ts";
import { accountView, ownCredential, removeSignInMethod } from "./account-passkeys.ts";
import { normalizeIdentifier, normalizePassword } from "./normalize.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

// A signed-in person's password and e-mail addresses on the account page (spec §5). Changing or
// removing the password proves the current one, or else a fresh sign-in; a first password needs a
// fresh sign-in. An address joins the account once the code e-mailed to it is typed. Every removal
// follows the one rule of `signsIn`: the account keeps a way to sign in.

export interface SignInMethodDeps {
  db: Database;
  secrets: InstanceSecrets;
  mailer: Mailer;
  issuer: string;
  title: string;
}

/** Throws 403 `freshSignInRequired` unless the browser's sign-in to this account is recent. */
export type FreshSignInCheck = () => Promise<void>;

/** Where a request comes from and in which language its e-mail is written. */
export interface Requester {
  address: string;
  locale: Locale;
}

interface PasswordData {
  hash: string;
}

const passwordOf = (credentials: readonly StoredCredential[]) =>
  credentials.find(({ provider }) => provider === "password");

const tooMany = (retryAfterMs: number, what: string) =>
  new TooManyRequestsError(`too many ${what}; try again later`, Math.ceil(retryAfterMs / 1000));

async function reserve(deps: SignInMethodDeps, buckets: Parameters<typeof reserveAll>[1], what: string) {
  const reserved = await reserveAll(limitStore(deps), buckets);
  if (isRefusal(reserved)) throw tooMany(reserved.retryAfterMs, what);
  return reserved;
}

/**
 * The current password proves the person, or else (none given) a fresh sign-in does. The guess is
 * reserved in the account's password bucket, which sign-ins share, before it is compared; a right
 * one gives its unit back.
 */
async function proveCurrentPassword(
  deps: SignInMethodDeps,
  accountId: string,
  current: StoredCredential,
  typed: string | undefined,
  freshSignIn: FreshSignInCheck,
): Promise<void> {
  if (typed === undefined) return freshSignIn();
  const reserved: Reservation = await reserve(deps, [passwordGuessBucket(accountId)], "passwords tried");
  const normalized = normalizePassword(typed);
  const { hash } = JSON.parse(current.data) as PasswordData;
  const right = typeof normalized !== "string" && (await verifyPassword(hash, normalized.password));
  if (!right) throw new HttpError(400, "wrongCurrentPassword", "the current password is not right");
  await releaseAll(limitStore(deps), reserved);
}

/**
 * A new password by the rules of spec §5 (8 to 1024 characters, counted as characters), and not the
 * account's username or one of its e-mail addresses (NIST SP 800-63B §5.1.1.2).
 */
function newPassword(typed: string, credentials: readonly StoredCredential[]): string {
  const normalized = normalizePassword(typed);
  if (normalized === "short")
    throw new HttpError(400, "passwordTooShort", "the password must have at least 8 characters");
  if (normalized === "invalid")
    throw new HttpError(
      400,
      "passwordInvalid",
      "the password is too long or has characters that cannot be typed",
    );
  const folded = normalized.password.toLowerCase().normalize("NFC");
  const names = credentials.filter(({ provider }) => provider === "username" || provider === "email");
  if (names.some(({ providerId }) => providerId === folded))
    throw new HttpError(
      400,
      "passwordIsIdentifier",
      "the password must not be your username or e-mail address",
    );
  return normalized.password;
}

const changedMeanwhile = () =>
  new HttpError(409, "credentialChanged", "it was changed meanwhile; load the page again");

/** Sets the account's first password (after a fresh sign-in), or changes it. */
export async function setPassword(
  deps: SignInMethodDeps,
  accountId: string,
  body: { password: string; currentPassword?: string | undefined },
  freshSignIn: FreshSignInCheck,
): Promise<Account> {
  const credentials = await credentialsOf(deps.db, accountId);
  const password = newPassword(body.password, credentials);
  const current = passwordOf(credentials);
  if (current) await proveCurrentPassword(deps, accountId, current, body.currentPassword, freshSignIn);
  else await freshSignIn();
  const data = JSON.stringify({ hash: await hashPassword(password) });
  const id = await inAccountTransaction(deps.db, accountId, async (trx) => {
    const now = Date.now();
    const stored = passwordOf(await credentialsOf(trx, accountId, "password"));
    // What was proven must still be what is replaced: a change made meanwhile wins.
    if (stored?.data !== current?.data) throw changedMeanwhile();
    if (stored) {
      await trx
        .updateTable("credentials")
        .set({ data, updated_at: now })
        .where("id", "=", stored.id)
        .execute();
      return stored.id;
    }
    const added = newId();
    const row = {
      id: added,
      accountId,
      provider: "password",
      providerId: null,
      displayName: "password",
      data,
    };
    await insertCredential(trx, row, now);
    return added;
  });
  await recordActivity(deps.db, accountId, {
    type: current ? "credentialUpdate" : "credentialAdd",
    providers: ["password"],
    credential: { id, name: "" },
  });
  return accountView(deps.db, accountId);
}

/** Removes the password, proven as for a change, unless the account could not sign in without it. */
export async function removePassword(
  deps: SignInMethodDeps,
  accountId: string,
  body: { currentPassword?: string | undefined },
  freshSignIn: FreshSignInCheck,
): Promise<Account> {
  const current = passwordOf(await credentialsOf(deps.db, accountId, "password"));
  if (!current) throw new HttpError(404, "notFound", "the account has no password");
  await proveCurrentPassword(deps, accountId, current, body.currentPassword, freshSignIn);
  await removeSignInMethod(deps.db, accountId, current, current.data);
  return accountView(deps.db, accountId);
}

/**
 * E-mails a code to a new address for the account. The answer is the same whether or not another
 * account has the address: only the code, which proves the mailbox, tells that (see `verifyEmail`).
 * An earlier code for the same address stops working.
 */
export async function addEmail(
  deps: SignInMethodDeps,
  accountId: string,
  typed: string,
  requester: Requester,
): Promise<Account> {
  const identifier = normalizeIdentifier(typed);
  if (typeof identifier === "string" || identifier.kind !== "email")
    throw new HttpError(400, "invalidEmail", "this is not an e-mail address");
  const own = await credentialsOf(deps.db, accountId, "email");
  if (own.some(({ providerId }) => providerId === identifier.key))
    throw new HttpError(409, "emailExists", "the address is already one of your account's");
  const reserved = await reserve(
    deps,
    codeSendBuckets(requester.address, [identifier.key], { id: accountId, knownDevice: undefined }),
    "codes sent",
  );
  const id = newId();
  const code = newCode();
  try {
    await deps.mailer.send(
      addressCodeMessage({
        to: identifier.display,
        code,
        title: deps.title,
        issuer: deps.issuer,
        locale: requester.locale,
      }),
    );
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    // A code that never left costs none of the limits on codes sent.
    await releaseAll(limitStore(deps), reserved);
    throw new HttpError(503, "mailUnavailable", "the code could not be sent; try again in a moment");
  }
  const now = Date.now();
  await replaceEmailVerification(deps.db, {
    id,
    accountId,
    addressKey: identifier.key,
    address: identifier.display,
    codeHash: hashCode(deps.secrets.emailCodes, id, code).toString("base64url"),
    createdAt: now,
    expiresAt: now + codeLifetimeMs,
  });
  return accountView(deps.db, accountId);
}

/** Each address's code may be guessed this often, like a sign-in's, before it must be sent anew. */
const verificationBucket = (id: string) => ({
  key: `email-verify:${id}`,
  limit: maxFlowAttempts,
  ratePerMs: 0,
});

const expiredCode = () =>
  new HttpError(400, "emailCodeExpired", "the code has expired or was used; send a new one");

/**
 * Adds the address once its code is right. The guess is reserved (the address's own count and the
 * account's code bucket, which sign-ins share) before the code is compared. An address another account
 * has stays there (409 `emailTaken`): whoever typed the code reads its mailbox, so may know that.
 */
export async function verifyEmail(
  deps: SignInMethodDeps,
  accountId: string,
  id: string,
  typed: string,
): Promise<Account> {
  const verification = await findEmailVerification(deps.db, accountId, id, Date.now());
  if (!verification) throw expiredCode();
  const reserved = await reserve(deps, [verificationBucket(id), codeGuessBucket(accountId)], "codes tried");
  const code = typedCode(typed);
  const expected = Buffer.from(verification.codeHash, "base64url");
  const right = code !== undefined && timingSafeEqual(expected, hashCode(deps.secrets.emailCodes, id, code));
  if (!right) throw new HttpError(400, "invalidEmailCode", "the code is not right");
  await releaseAll(limitStore(deps), reserved);
  if (!(await takeEmailVerification(deps.db, accountId, id))) throw expiredCode();
  const credential = {
    id: newId(),
    accountId,
    provider: "email",
    providerId: verification.addressKey,
    displayName: verification.address,
    data: "{}",
  };
  try {
    await insertCredential(deps.db, credential, Date.now());
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if ((await findAccountIdByCredential(deps.db, "email", verification.addressKey)) === accountId)
      return accountView(deps.db, accountId);
    throw new HttpError(409, "emailTaken", "another account has this address");
  }
  await recordActivity(deps.db, accountId, {
    type: "credentialAdd",
    providers: ["email"],
    credential: { id: credential.id, name: credential.displayName },
  });
  return accountView(deps.db, accountId);
}

/** Forgets an address being added: its code stops working. */
export async function cancelEmail(db: Database, accountId: string, id: string): Promise<Account> {
  await deleteEmailVerification(db, accountId, id);
  return accountView(db, accountId);
}

/** The address becomes the one e-mails about the account go to. */
export async function makeEmailPrimary(db: Database, accountId: string, id: string): Promise<Account> {
  const email = await ownCredential(db, accountId, id);
  if (email.provider !== "email")
    throw new HttpError(400, "credentialNotManaged", "this is not an e-mail address");
  if (!(await setPrimaryEmail(db, accountId, id, Date.now())))
    throw new HttpError(404, "notFound", "no such credential");
  await recordActivity(db, accountId, {
    type: "credentialUpdate",
    providers: ["email"],
    credential: { id, name: email.displayName },
  });
  return accountView(db, accountId);
}

/** Removes an e-mail address unless the account could not sign in without it. */
export async function removeEmail(
  db: Database,
  accountId: string,
  email: StoredCredential,
): Promise<Account> {
  await removeSignInMethod(db, accountId, email);
  return accountView(db, accountId);
}
