import { startRegistration } from "@simplewebauthn/browser";
import {
  signUpNameErrors,
  type FlowError,
  type FlowResponse,
  type SignUpNameError,
} from "../../../common/api/flow.ts";
import type { Locale } from "../../../common/limits.ts";
import { ApiError } from "../../api.ts";
import { postStep } from "./flowApi.ts";
import { CeremonyAbandoned } from "./passkeyCeremony.ts";

// Signing up with a new passkey, apart from signing in: only the passkey step offers it, so the
// first step's page does not carry it.

/** What the person typed to name the new account's first identity. */
export interface PasskeyNaming {
  /** A username, or their name. */
  name: string;
  /** An e-mail address, or empty. */
  email: string;
}

/** A mistake of the naming form: the form shows it at its field instead of failing the step. */
export const isNamingMistake = (error: FlowError | undefined): error is SignUpNameError =>
  (signUpNameErrors as readonly (FlowError | undefined)[]).includes(error);

/** Signs up with a new passkey for an identity named as typed; the page's language names the passkey. */
export async function signUpWithPasskey(
  flowId: string,
  naming: PasskeyNaming,
  locale: Locale,
  signal?: AbortSignal,
): Promise<FlowResponse> {
  const email = naming.email.trim();
  const started = await postStep("AuthFlowPasskeyCreateStart", flowId, {
    name: naming.name,
    ...(email ? { email } : {}),
    locale,
  });
  if (signal?.aborted) throw new CeremonyAbandoned();
  if (!started.passkey || !("createOptions" in started.passkey)) throw new ApiError("unexpected", 0);
  const response = await startRegistration({ optionsJSON: started.passkey.createOptions });
  return postStep("AuthFlowPasskeyCreateComplete", flowId, { response });
}

/**
 * Adds a new passkey to the account that proved its first factor, as the second factor it sets up:
 * the same ceremony, with no identity to name.
 */
export const addPasskey = (flowId: string, locale: Locale, signal?: AbortSignal) =>
  signUpWithPasskey(flowId, { name: "", email: "" }, locale, signal);
