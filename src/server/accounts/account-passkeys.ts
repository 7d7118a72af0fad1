import { randomBytes } from "node:crypto";
import type { RegistrationResponseJSON } from "@simplewebauthn/browser";
import { credentialProviders, type Account, type Credential } from "../../common/api/account.ts";
import {
  accountPasskeyChallengeLifetimeMs,
  totpPeriodSeconds,
  totpWindowSteps,
} from "../../common/limits.ts";
import { recordActivity } from "../activity/activity.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import {
  credentialsOf,
  deleteCredentialUnlessLast,
  insertCredential,
  renameCredential,
  signsIn,
  type StoredCredential,
} from "../store/accounts.ts";
import { pendingEmailVerifications } from "../store/email-verifications.ts";
import { isUniqueViolation } from "../store/errors.ts";
import { insertPasskeyChallenge, takePasskeyChallenge } from "../store/passkey-challenges.ts";
import { authenticatorName } from "./authenticators.ts";
import {
  findPasskey,
  passkeyProvider,
  passkeyRegistrationOptions,
  passkeyRelyingParty,
  passkeyRow,
  verifiedNewPasskey,
  type PasskeyData,
} from "./passkeys.ts";
import { recoveryCodesProvider, unusedCount } from "./recovery-codes.ts";
import { totpProvider } from "./totp.ts";

// A signed-in person's own sign-in methods: listed (with what may be removed and the primary e-mail
// address), any way to sign in removed by one rule, and passkeys added and renamed. The routes only
// check who calls.

export interface AccountDeps {
  db: Database;
  issuer: string;
  title: string;
}

type Log = { info: (details: object, message: string) => void };

const iso = (time: number) => new Date(time).toISOString();

/**
 * When an authenticator app last proved a sign-in: the time step of the last code it accepted. The
 * set-up's own code is a step near the row's creation, so a step later than that window was a use.
 */
export function totpLastUsedAt(credential: Pick<StoredCredential, "data" | "createdAt">): number | undefined {
  const { lastStep } = JSON.parse(credential.data) as { lastStep: number };
  const stepStart = lastStep * totpPeriodSeconds * 1000;
  const setUpWindowEnd = credential.createdAt + (totpWindowSteps + 1) * totpPeriodSeconds * 1000;
  return stepStart > setUpWindowEnd ? stepStart : undefined;
}
const passkeyData = (credential: StoredCredential) => JSON.parse(credential.data) as PasskeyData;
/** A third-party provider's subject: its provider is a configured key, not one of Vrata's own kinds. */
export const isUpstreamCredential = (credential: Pick<StoredCredential, "provider">) =>
  !(credentialProviders as readonly string[]).includes(credential.provider);

/** The address e-mails about the account go to: the one made primary, or else the oldest. */
export function primaryEmail<C extends Pick<StoredCredential, "provider" | "data">>(
  credentials: readonly C[],
): C | undefined {
  const emails = credentials.filter(({ provider }) => provider === "email");
  return emails.find((email) => (JSON.parse(email.data) as { primary?: boolean }).primary) ?? emails[0];
}

/** Whether the person may remove the credential here: the account must still sign in without it. */
function removable(credential: StoredCredential, credentials: readonly StoredCredential[]): boolean {
  // An authenticator app is no way to sign in: removing it never leaves the account without one.
  if (credential.provider === totpProvider) return true;
  if (credential.provider === "username") return false;
  return signsIn(credentials.filter(({ id }) => id !== credential.id));
}

function credentialView(credential: StoredCredential, credentials: readonly StoredCredential[]): Credential {
  const base = {
    id: credential.id,
    provider: credential.provider,
    name: credential.provider === "password" ? "" : credential.displayName,
    createdAt: iso(credential.createdAt),
    removable: removable(credential, credentials),
  };
  if (credential.provider === "email")
    return { ...base, primary: primaryEmail(credentials)?.id === credential.id };
  if (credential.provider === "password") return { ...base, updatedAt: iso(credential.updatedAt) };
  if (credential.provider === totpProvider) {
    const lastUsedAt = totpLastUsedAt(credential);
    return { ...base, ...(lastUsedAt === undefined ? {} : { lastUsedAt: iso(lastUsedAt) }) };
  }
  if (credential.provider !== passkeyProvider) return base;
  const data = passkeyData(credential);
  const authenticator = authenticatorName(data.aaguid);
  return {
    ...base,
    ...(data.lastUsedAt === undefined ? {} : { lastUsedAt: iso(data.lastUsedAt) }),
    ...(authenticator ? { authenticator } : {}),
    synced: data.multiDevice,
    backedUp: data.backedUp,
  };
}

export async function accountView(db: Database, accountId: string): Promise<Account> {
  const [credentials, pending] = await Promise.all([
    credentialsOf(db, accountId),
    pendingEmailVerifications(db, accountId, Date.now()),
  ]);
  // The recovery codes' row holds only their hashes: the page shows how many are left.
  const recoveryCodes = credentials.find(({ provider }) => provider === recoveryCodesProvider);
  return {
    credentials: credentials
      .filter(({ provider }) => provider !== recoveryCodesProvider)
      .map((credential) => credentialView(credential, credentials)),
    pendingEmails: pending.map(({ id, address, expiresAt }) => ({
      id,
      email: address,
      expiresAt: iso(expiresAt),
    })),
    ...(recoveryCodes ? { recoveryCodesLeft: unusedCount(recoveryCodes) } : {}),
  };
}

/**
 * Removes a way to sign in (a passkey, a linked provider, an e-mail address, the password) unless the
 * account could not sign in without it (409 `lastSignInMethod`), and records it. With `data`, only
 * the version that was checked is removed (409 `credentialChanged` otherwise).
 */
export async function removeSignInMethod(
  db: Database,
  accountId: string,
  credential: StoredCredential,
  data?: string,
): Promise<void> {
  const outcome = await deleteCredentialUnlessLast(db, accountId, credential.id, data);
  if (outcome === "gone") throw new HttpError(404, "notFound", "no such credential");
  if (outcome === "changed")
    throw new HttpError(409, "credentialChanged", "it was changed meanwhile; load the page again");
  if (outcome === "last")
    throw new HttpError(409, "lastSignInMethod", "this is the account's last way to sign in");
  await recordActivity(db, accountId, {
    type: "credentialRemove",
    providers: [credential.provider],
    credential: { id: credential.id, name: credential.provider === "password" ? "" : credential.displayName },
  });
}

/** The account's credential of this row ID; 404 for another account's. */
export async function ownCredential(db: Database, accountId: string, id: string): Promise<StoredCredential> {
  const credential = (await credentialsOf(db, accountId)).find((candidate) => candidate.id === id);
  if (!credential) throw new HttpError(404, "notFound", "no such credential");
  return credential;
}

/** The account's passkey of this credential row ID; 404 for another account's. */
async function ownPasskey(db: Database, accountId: string, id: string): Promise<StoredCredential> {
  const credential = await ownCredential(db, accountId, id);
  if (credential.provider !== passkeyProvider)
    throw new HttpError(400, "credentialNotManaged", "only passkeys can be changed here for now");
  return credential;
}

/** What the person's authenticators list the account under: their username or primary e-mail address. */
export function accountName(credentials: readonly StoredCredential[]): string | undefined {
  const named = credentials.find(({ provider }) => provider === "username") ?? primaryEmail(credentials);
  return named?.displayName;
}

const userName = (credentials: readonly StoredCredential[], title: string, userHandle: string) =>
  accountName(credentials) ?? `${title} (${userHandle})`;

/**
 * The options of a new passkey for the account. Its passkeys share one user handle (a new account
 * without any gets a random one), so that authenticators keep them together; the challenge is kept
 * for a few minutes and answers once.
 */
export async function startPasskeyCreation(deps: AccountDeps, accountId: string) {
  const credentials = await credentialsOf(deps.db, accountId);
  const passkeys = credentials.filter(({ provider }) => provider === passkeyProvider);
  const existing = passkeys.map(passkeyData).find((data) => data.userHandle)?.userHandle;
  const userHandle = existing ? Buffer.from(existing, "base64url") : randomBytes(16);
  const handle = userHandle.toString("base64url");
  const createOptions = await passkeyRegistrationOptions({
    issuer: deps.issuer,
    title: deps.title,
    userHandle,
    userName: userName(credentials, deps.title, handle),
    exclude: passkeys.map((credential) => ({
      id: credential.id,
      accountId,
      credentialId: credential.providerId ?? "",
      name: credential.displayName,
      data: passkeyData(credential),
    })),
  });
  const now = Date.now();
  await insertPasskeyChallenge(deps.db, {
    challenge: createOptions.challenge,
    accountId,
    userHandle: handle,
    createdAt: now,
    expiresAt: now + accountPasskeyChallengeLifetimeMs,
  });
  return { createOptions };
}

/** The challenge the browser says it answered; the signature over it is checked afterwards. */
function answeredChallenge(response: RegistrationResponseJSON): string | undefined {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString()) as {
      challenge?: unknown;
    };
    return typeof clientData.challenge === "string" ? clientData.challenge : undefined;
  } catch {
    return undefined;
  }
}

function refuseDuplicateName(credentials: readonly StoredCredential[], name: string, except?: string): void {
  const taken = credentials.some(
    (credential) =>
      credential.provider === passkeyProvider && credential.id !== except && credential.displayName === name,
  );
  if (taken) throw new HttpError(409, "duplicateCredentialName", "another passkey of yours has this name");
}

/** "Windows Hello", "Windows Hello 2", ...: a name the account's passkeys do not have yet. */
function freeName(credentials: readonly StoredCredential[], base: string): string {
  const names = new Set(
    credentials.filter(({ provider }) => provider === passkeyProvider).map(({ displayName }) => displayName),
  );
  let name = base;
  for (let number = 2; names.has(name); number++) name = `${base} ${number}`;
  return name;
}

/**
 * Verifies the browser's answer and stores the new passkey. The challenge is taken out of the store
 * before anything else, so an answer is verified once, even a wrong one.
 */
export async function completePasskeyCreation(
  deps: AccountDeps,
  accountId: string,
  body: { response: RegistrationResponseJSON; name?: string | undefined; defaultName?: string | undefined },
  log: Log,
): Promise<Account> {
  const challenge = answeredChallenge(body.response);
  const pending = challenge && (await takePasskeyChallenge(deps.db, accountId, challenge, Date.now()));
  if (!challenge || !pending)
    throw new HttpError(
      400,
      "passkeyExpired",
      "start adding the passkey again; each start allows one answer",
    );
  const credentials = await credentialsOf(deps.db, accountId);
  if (body.name !== undefined) refuseDuplicateName(credentials, body.name);
  const passkey = await verifiedNewPasskey(
    deps.issuer,
    body.response,
    { challenge, userHandle: pending.userHandle, name: body.name ?? "" },
    log,
  );
  if (!passkey) throw new HttpError(400, "passkeyFailed", "the passkey's answer could not be verified");
  if (await findPasskey(deps.db, passkey.credentialId))
    throw new HttpError(409, "passkeyExists", "this passkey is already stored");
  passkey.name ||= freeName(
    credentials,
    authenticatorName(passkey.data.aaguid) ?? body.defaultName ?? "Passkey",
  );
  const id = newId();
  try {
    await insertCredential(deps.db, passkeyRow(id, accountId, passkey), Date.now());
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, "passkeyExists", "this passkey is already stored");
    throw error;
  }
  await recordActivity(deps.db, accountId, {
    type: "credentialAdd",
    providers: [passkeyProvider],
    credential: { id, name: passkey.name },
  });
  return accountView(deps.db, accountId);
}

export async function renamePasskey(
  db: Database,
  accountId: string,
  id: string,
  name: string,
): Promise<Account> {
  const passkey = await ownPasskey(db, accountId, id);
  if (passkey.displayName !== name) {
    refuseDuplicateName(await credentialsOf(db, accountId), name, id);
    await renameCredential(db, accountId, id, name, Date.now());
    await recordActivity(db, accountId, {
      type: "credentialUpdate",
      providers: [passkeyProvider],
      credential: { id, name, previousName: passkey.displayName },
    });
  }
  return accountView(db, accountId);
}

/** Removes the passkey unless it is the account's last way to sign in (409 `lastSignInMethod`). */
export async function removePasskey(deps: AccountDeps, accountId: string, passkey: StoredCredential) {
  await removeSignInMethod(deps.db, accountId, passkey);
  return {
    ...(await accountView(deps.db, accountId)),
    signalUnknown: { rpId: passkeyRelyingParty(deps.issuer).id, credentialId: passkey.providerId ?? "" },
  };
}
