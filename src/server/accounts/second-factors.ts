import {
  acrValues,
  policyAcr,
  type AcrValue,
  type PendingSecondFactor,
  type SecondFactorMethod,
  type SignInPolicy,
} from "../../common/api/second-factor.ts";
import { credentialsOf } from "../store/accounts.ts";
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
  const credentials = await credentialsOf(db, accountId);
  return {
    totp: credentials.some(({ provider }) => provider === totpProvider),
    passkey: credentials.some(({ provider }) => provider === passkeyProvider),
    recoveryCodes: unusedCount(credentials.find(({ provider }) => provider === recoveryCodesProvider)),
  };
}

/**
 * Authentication method references of each way of proving who one is: a passkey is a key its
 * authenticator holds (`hwk`, or `swk` when synced between devices), unlocked by the person (`user`),
 * and counts as two factors; a third-party provider is a federated sign-in.
 */
export function amrOf(method: string, passkey?: { synced: boolean }): string[] {
  if (method === "password") return ["pwd"];
  if (method === "code" || method === "totp" || method === "recoveryCode") return ["otp"];
  if (method === "passkey") return [passkey?.synced ? "swk" : "hwk", "user", "mfa"];
  return ["fed"];
}

/** What the first factor and a second one proved together. */
export function withSecondFactor(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second, "mfa"])];
}

/** The level a set of methods reaches: a passkey is phishing-resistant; two factors are `aal2`. */
export function acrOf(amr: readonly string[]): AcrValue {
  if (amr.includes("hwk") || amr.includes("swk")) return "phr";
  return amr.includes("mfa") ? "aal2" : "aal1";
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
 */
export function pendingSecondFactor({
  amr,
  policy,
  requested,
  factors,
}: {
  amr: readonly string[];
  policy: SignInPolicy;
  requested: AcrValue | undefined;
  factors: AccountFactors;
}): PendingSecondFactor | undefined {
  const byAccount: AcrValue = factors.totp ? "aal2" : "aal1";
  const needed = highest([policyAcr[policy], requested ?? "aal1", byAccount]);
  if (rank(acrOf(amr)) >= rank(needed)) return undefined;
  const reason =
    rank(requested ?? "aal1") > rank(highest([policyAcr[policy], byAccount]))
      ? "app"
      : rank(policyAcr[policy]) >= rank(needed) && policy !== "any"
        ? "organization"
        : "account";
  if (needed === "phr") {
    return factors.passkey
      ? { need: "passkey", reason, methods: ["passkey"] }
      : { need: "passkey", reason, methods: [], setUp: ["passkey"] };
  }
  const methods: SecondFactorMethod[] = [
    ...(factors.totp ? (["totp"] as const) : []),
    ...(factors.passkey ? (["passkey"] as const) : []),
    ...(factors.recoveryCodes > 0 ? (["recoveryCode"] as const) : []),
  ];
  return methods.length > 0
    ? { need: "secondFactor", reason, methods }
    : { need: "secondFactor", reason, methods: [], setUp: ["totp", "passkey"] };
}
