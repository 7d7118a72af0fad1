import type { TFunction } from "../../i18n/index.ts";
import {
  flowErrors,
  flowProviders,
  type BuiltInFlowProvider,
  type FlowError,
  type FlowResponse,
} from "../../../common/api/flow.ts";
import { secondFactorMethods } from "../../../common/api/second-factor.ts";

export type Step =
  | "start"
  | "password"
  | "code"
  | "passkey"
  | "thirdPartyProvider"
  | "secondFactor"
  | "recoveryCodes"
  | "keepAccount"
  | "identity"
  | "account"
  | "redirect"
  | "manual";

/**
 * The step that shows a flow's state (reference §4.7): after an auth step the identity step, after an
 * identity choice or a decline the countdown, after a failure or the end the manual redirect, and
 * "finish" when the server is ready to send the browser back to the app. Before an auth step, the
 * methods the flow has started pick the step; `codeFromLink` is a code from an e-mail's link. A
 * pending second factor comes before the identity, and so do the recovery codes its set-up answered
 * with (once: a reload goes on to the identity).
 */
export function stepFor(flow: FlowResponse, codeFromLink = false): Step | "finish" {
  const last = flow.completed.at(-1);
  if (flow.secondFactor && (last === undefined || last === "signin" || last === "signup")) {
    return "secondFactor";
  }
  // Every factor is proven, but the account is to be deleted: the person keeps it or leaves first.
  if (flow.deletionDueAt && (last === "signin" || last === "signup")) return "keepAccount";
  switch (last) {
    case "signin":
    case "signup":
      if (flow.recoveryCodes) return "recoveryCodes";
      // The account page asks for no identity: the flow goes back to it at once.
      return flow.accountPage ? "account" : "identity";
    case "identity":
    case "declined":
      return "redirect";
    case "failed":
    case "finished":
      return "manual";
    case "finishReady":
      return "finish";
    case undefined: {
      const providers = flow.providers ?? [];
      if (providers.includes("code") || codeFromLink) return "code";
      if (providers.includes("password")) return "password";
      return "start";
    }
  }
}

/** Mistakes found before calling the server, in addition to the server's {@link FlowError}s. */
export type StepMistake = FlowError | "codeFormat";

export const isFlowError = (code: string): code is FlowError =>
  (flowErrors as readonly string[]).includes(code);

export const isEmail = (emailOrUsername: string) => emailOrUsername.includes("@");

/** The message of spec §8 for a mistake; the identifier picks between e-mail and username wording. */
export function mistakeMessage(t: TFunction, mistake: StepMistake, emailOrUsername: string): string {
  const email = isEmail(emailOrUsername);
  switch (mistake) {
    case "invalidEmailOrUsername":
      return email ? t("errors.invalidEmail") : t("errors.invalidUsername");
    case "shortEmailOrUsername":
      return email ? t("authFlow.errors.shortEmail") : t("authFlow.errors.shortUsername");
    case "invalidUsername":
    case "invalidEmail":
      return t(`errors.${mistake}`);
    default:
      return t(`authFlow.errors.${mistake}`);
  }
}

/** Length in characters (code points), not UTF-16 units (design.md §6). */
export const characterCount = (value: string) => Array.from(value).length;

/** Whether a flow's method is one of Vrata's own rather than a third-party provider's key. */
export const isBuiltInProvider = (provider: string) =>
  [...flowProviders, ...secondFactorMethods].includes(provider as BuiltInFlowProvider);

/**
 * Whether a method the flow lists proved a second factor rather than the first: an authenticator
 * app's or a recovery code, or a passkey after another method (a passkey on its own is both factors,
 * so nothing follows it).
 */
function isSecondFactor(provider: string, index: number): boolean {
  if (provider === "passkey") return index > 0;
  return (secondFactorMethods as readonly string[]).includes(provider);
}

/** The methods a flow lists that proved the first factor (the second comes after them). */
export const firstFactors = (providers: readonly string[]) =>
  providers.filter((provider, index) => !isSecondFactor(provider, index));

/** Whether the methods a flow lists include a second factor. */
export const usedSecondFactor = (providers: readonly string[]) =>
  providers.some((provider, index) => isSecondFactor(provider, index));
