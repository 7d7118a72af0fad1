import type { FlowResponse } from "../../../common/api/flow.ts";
import type { PendingSecondFactor } from "../../../common/api/second-factor.ts";
import { totpDigits } from "../../../common/limits.ts";
import type { TFunction } from "../../i18n/index.ts";

/** Why the sign-in asks for a second factor, naming who asks: the person, the organization or the app. */
export function secondFactorReason(t: TFunction, pending: PendingSecondFactor, flow: FlowResponse): string {
  const values = { organizationName: flow.organizationName, appName: flow.appName };
  return pending.need === "passkey"
    ? t(`authFlow.secondFactor.passkeyReason.${pending.reason}`, values)
    : t(`authFlow.secondFactor.reason.${pending.reason}`, values);
}

const totpPattern = new RegExp(`^\\d{${totpDigits}}$`);

/**
 * The authenticator app's code as typed, without the spaces apps show in it ("123 456"), or null when
 * it is not a code at all.
 */
export function totpCodeOf(typed: string): string | null {
  const digits = typed.replace(/\s/g, "");
  return totpPattern.test(digits) ? digits : null;
}

/** What an authenticator app's code field is, wherever one is asked for: digits, filled in by the phone. */
export const totpFieldLook = {
  name: "totp",
  inputMode: "numeric",
  autoComplete: "one-time-code",
  // Room for the spaces apps show in codes.
  maxLength: totpDigits * 2,
  className: "text-center font-mono text-2xl tracking-[0.4em]",
} as const;
