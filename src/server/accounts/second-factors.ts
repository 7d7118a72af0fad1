import {
  acrValues,
  policyAcr,
  type AcrValue,
  type PendingSecondFactor,
  type SecondFactorMethod,
  type SignInPolicy,
} from "../../common/api/second-factor.ts";
import { credentialsOf, type StoredCredential } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import { passkeyProvider } from "./passkeys.ts";
import { recoveryCodesProvider, unusedCount } from "./recovery-codes.ts";
import { totpProvider } from "./totp.ts";

// Which second factors an account has, what a sign-in proved (`amr`, RFC 8176, and the level `acr`),
// and what a flow still has to ask for before the person may continue.

export interface AccountFactors {
  totp: boolean;
  passkey: boolean;
  recoveryCodes: number;
}

export async function factorsOf(db: Database, accountId: string): Promise<AccountFactors> {
  return factorsIn(await credentialsOf(db, accountId));
}

/** The second factors among an account's credentials. */
export function factorsIn(credentials: readonly StoredCredential[]): AccountFactors {
  return {
    totp: credentials.some(({ provider }) => provider === totpProvider),
    passkey: credentials.some(({ provider }) => provider === passkeyProvider),
    recoveryCodes: unusedCount(credentials.find(({ provider }) => provider === recoveryCodesProvider)),
  };
}

/**
 * Authentication method references of each way of proving who one is: a passkey is a key its
 * authenticator holds (`hwk`, or `swk` when synced between devices) and, unlocked by the person
 * (`user`: a PIN, fingerprint or face the authenticator verified), counts as two factors; a third-party
 * provider is a federated sign-in.
 */
export function amrOf(method: string, passkey?: { synced: boolean; userVerified: boolean }): string[] {
  if (method === "password") return ["pwd"];
  if (method === "code" || method === "totp" || method === "recoveryCode") return ["otp"];
  if (method === "passkey") {
    const key = passkey?.synced ? "swk" : "hwk";
    return passkey?.userVerified ? [key, "user", "mfa"] : [key];
  }
  return ["fed"];
}

/** What the first factor and a second one proved together. */
export function withSecondFactor(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second, "mfa"])];
}

/**
 * The level a set of methods reaches: two factors are `aal2`, and `phr` when one of them is a passkey
 * (phishing-resistant); a passkey nobody unlocked is one factor.
 */
export function acrOf(amr: readonly string[]): AcrValue {
  if (!amr.includes("mfa")) return "aal1";
  return amr.includes("hwk") || amr.includes("swk") ? "phr" : "aal2";
}

const rank = (acr: AcrValue) => acrValues.indexOf(acr);
const highest = (levels: AcrValue[]) =>
  levels.reduce<AcrValue>((top, level) => (rank(level) > rank(top) ? level : top), "aal1");

/**
 * The level an app asks for with `acr_values` (in order of preference): the first value Vrata knows.
 * OpenID Connect makes it voluntary, but an app that asks for more than one factor means it.
 */
export function requestedAcr(acrValuesParameter: unknown): AcrValue | undefined {
  if (typeof acrValuesParameter !== "string") return undefined;
  return acrValuesParameter
    .split(" ")
    .find((value): value is AcrValue => (acrValues as readonly string[]).includes(value));
}

/**
 * What the flow still asks for once the methods in `amr` are proven: nothing, or a second factor (a
 * passkey only, when that is what is asked), from the methods the account has or, having none, one it
 * sets up now. A person who set up an authenticator app is always asked for a second factor.
 *
 * Only the organization's policy makes a person set one up during a sign-in. An app's `acr_values`
 * alone is met with what the account has, else answered with the level reached (its `acr` says which,
 * as OpenID Connect has it): otherwise anyone who knows a password could add their own second factor
 * to the account by naming a higher level.
 *
 * `ownFactor: false` leaves out the person's own authenticator app: a sign-in made before they set it
 * up stays as good as it was (only the organization and the app step it up).
 */
export function pendingSecondFactor({
  amr,
  policy,
  requested,
  factors,
  ownFactor = true,
}: {
  amr: readonly string[];
  policy: SignInPolicy;
  requested: AcrValue | undefined;
  factors: AccountFactors;
  ownFactor?: boolean;
}): PendingSecondFactor | undefined {
  const byAccount: AcrValue = ownFactor && factors.totp ? "aal2" : "aal1";
  const needed = highest([policyAcr[policy], requested ?? "aal1", byAccount]);
  if (rank(acrOf(amr)) >= rank(needed)) return undefined;
  const reason =
    rank(requested ?? "aal1") > rank(highest([policyAcr[policy], byAccount]))
      ? "app"
      : rank(policyAcr[policy]) >= rank(needed) && policy !== "any"
        ? "organization"
        : "account";
  const need = needed === "phr" ? "passkey" : "secondFactor";
  const methods: SecondFactorMethod[] =
    need === "passkey"
      ? factors.passkey
        ? ["passkey"]
        : []
      : [
          ...(factors.totp ? (["totp"] as const) : []),
          ...(factors.passkey ? (["passkey"] as const) : []),
          ...(factors.recoveryCodes > 0 ? (["recoveryCode"] as const) : []),
        ];
  if (methods.length > 0) return { need, reason, methods };
  if (reason === "app") return pendingSecondFactor({ amr, policy, requested: undefined, factors, ownFactor });
  return { need, reason, methods, setUp: need === "passkey" ? ["passkey"] : ["totp", "passkey"] };
}
