import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import {
  accountSchema,
  credentialRemoveResponseSchema,
  passkeyCreateStartResponseSchema,
  providerLinkStartResponseSchema,
  recoveryCodesResponseSchema,
  totpSetUpCompleteResponseSchema,
  type Account,
} from "../../../common/api/account.ts";
import { totpSetUpSchema, type TotpSetUp } from "../../../common/api/second-factor.ts";
import { accountExportFileName } from "../../../common/api/account-export.ts";
import { z } from "zod/mini";
import type { Locale } from "../../../common/limits.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { ApiError, getJson, postJson } from "../../api.ts";
import { signalUnknownPasskey } from "../../passkeySignals.ts";
import { activityKey } from "../activity/activityApi.ts";

// The account page's calls, with the console's access token (api.ts adds it).

export const accountQuery = queryOptions({
  queryKey: ["account"],
  queryFn: ({ signal }) => getJson(apiPath("Account"), accountSchema, signal),
});

/** The page shows the account as the last call answered it; the activity list has a new entry. */
export function showAccount(queryClient: QueryClient, account: Account): void {
  queryClient.setQueryData(accountQuery.queryKey, account);
  void queryClient.invalidateQueries({ queryKey: activityKey });
}

/**
 * Makes a passkey with the browser and stores it; "cancelled" when the person closed the browser's
 * dialog (or it timed out), which is no error of theirs.
 */
export async function addPasskey(defaultName: string): Promise<Account | "cancelled"> {
  const { createOptions } = await postJson(
    apiPath("AccountPasskeyCreateStart"),
    {},
    passkeyCreateStartResponseSchema,
  );
  let response;
  try {
    response = await startRegistration({ optionsJSON: createOptions });
  } catch (error) {
    // The browser says NotAllowedError for a cancelled or timed-out dialog alike, on purpose.
    const name =
      error instanceof WebAuthnError ? (error.cause as Error | undefined)?.name : (error as Error).name;
    if (name === "NotAllowedError" || name === "AbortError") return "cancelled";
    if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
      throw new ApiError("passkeyExists", 0);
    throw new ApiError("unexpected", 0, (error as Error).message);
  }
  return postJson(apiPath("AccountPasskeyCreateComplete"), { response, defaultName }, accountSchema);
}

export function renameCredential(id: string, name: string): Promise<Account> {
  return postJson(apiPrefix + pathFor("AccountCredentialRename", { id }), { name }, accountSchema);
}

/** Removes the passkey, and tells the browser to stop offering it when the browser can be told. */
export async function removeCredential(id: string): Promise<Account> {
  const answer = await postJson(
    apiPrefix + pathFor("AccountCredentialRemove", { id }),
    {},
    credentialRemoveResponseSchema,
  );
  const { signalUnknown, ...account } = answer;
  signalUnknownPasskey(signalUnknown);
  return account;
}

/** Starts linking a third-party provider: the address of the provider's sign-in to send the browser to. */
export async function startProviderLink(provider: string): Promise<string> {
  const { location } = await postJson(
    apiPrefix + pathFor("AccountProviderLinkStart", { provider }),
    {},
    providerLinkStartResponseSchema,
  );
  return location;
}

/** A new authenticator app's QR code and secret, to confirm with its first code. */
export function startTotpSetUp(): Promise<TotpSetUp> {
  return postJson(apiPath("AccountTotpSetUpStart"), {}, totpSetUpSchema);
}

/** Confirms the authenticator app; the account, with recovery codes when they were made with it. */
export function completeTotpSetUp(setUpToken: string, code: string) {
  return postJson(apiPath("AccountTotpSetUpComplete"), { setUpToken, code }, totpSetUpCompleteResponseSchema);
}

/** New recovery codes, to show once; the earlier ones stop working. */
export async function regenerateRecoveryCodes(): Promise<string[]> {
  const made = await postJson(apiPath("AccountRecoveryCodesRegenerate"), {}, recoveryCodesResponseSchema);
  return made.recoveryCodes;
}

/**
 * Downloads everything Vrata holds about the account as the file the server names: the answer is
 * saved as it came, so a newer server's fields are kept too.
 */
export async function downloadAccountData(): Promise<void> {
  const exported = await getJson(apiPath("AccountExport"), z.unknown());
  const file = new Blob([JSON.stringify(exported, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(file);
  link.download = accountExportFileName(new Date());
  link.click();
  // The browser has taken the file once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

/** Signs the account out of every browser but this one (the engine tells their apps). */
export async function endOtherSessions(): Promise<void> {
  await postJson(apiPath("AccountSessionsEndOthers"), {}, z.unknown());
}

/** Sets a first password, or changes it; without `currentPassword`, the browser's sign-in must be fresh. */
export function setPassword(password: string, currentPassword?: string): Promise<Account> {
  const body = currentPassword ? { password, currentPassword } : { password };
  return postJson(apiPath("AccountPasswordSet"), body, accountSchema);
}

/** Removes the password; without `currentPassword`, the browser's sign-in must be fresh. */
export function removePassword(currentPassword?: string): Promise<Account> {
  return postJson(
    apiPath("AccountPasswordRemove"),
    currentPassword ? { currentPassword } : {},
    accountSchema,
  );
}

/** Sends a code to a new address; the account lists it as pending until the code is typed. */
export function addEmail(email: string, locale: Locale): Promise<Account> {
  return postJson(apiPath("AccountEmailAdd"), { email, locale }, accountSchema);
}

export function verifyEmail(id: string, code: string): Promise<Account> {
  return postJson(apiPrefix + pathFor("AccountEmailVerify", { id }), { code }, accountSchema);
}

export function cancelEmail(id: string): Promise<Account> {
  return postJson(apiPrefix + pathFor("AccountEmailCancel", { id }), {}, accountSchema);
}

export function makeEmailPrimary(id: string): Promise<Account> {
  return postJson(apiPrefix + pathFor("AccountEmailPrimary", { id }), {}, accountSchema);
}
