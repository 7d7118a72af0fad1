import { startAuthentication, WebAuthnError } from "@simplewebauthn/browser";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { ApiError, FlowStateError } from "../../api.ts";
import { postStep } from "./flowApi.ts";

// The browser's side of signing in and up with a passkey: the flow's start step gives the options,
// the browser asks the authenticator, and the complete step checks its answer.

export type PasskeyAttempt = "signIn" | "signUp";

/**
 * Why a ceremony did not sign anyone in: `cancelled` by the person (or the browser's timeout), one of
 * the flow's mistakes (`noAccount`, `passkeyFailed`, `tooManyAttempts`), or an API error code.
 */
export type PasskeyFailure = string;

/** The page no longer wants the ceremony's answer. */
export class CeremonyAbandoned extends Error {}

interface SignInOptions {
  /** Offer the passkeys in the autofill list of the field marked `webauthn`, rather than in a dialog. */
  readonly autofill?: boolean;
  /** Stops before asking the browser when the page no longer wants the answer. */
  readonly signal?: AbortSignal;
  /** Called once the person picked a passkey and its answer goes to the server. */
  readonly onAnswer?: () => void;
}

export async function signInWithPasskey(flowId: string, options: SignInOptions = {}): Promise<FlowResponse> {
  const started = await postStep("AuthFlowPasskeyGetStart", flowId, {});
  if (options.signal?.aborted) throw new CeremonyAbandoned();
  if (!started.passkey || !("getOptions" in started.passkey)) throw new ApiError("unexpected", 0);
  const response = await startAuthentication({
    optionsJSON: started.passkey.getOptions,
    useBrowserAutofill: options.autofill ?? false,
  });
  options.onAnswer?.();
  return postStep("AuthFlowPasskeyGetComplete", flowId, { response });
}

/** The page started another ceremony, or left the step: nothing to tell the person. */
export const wasAbandoned = (error: unknown) =>
  error instanceof CeremonyAbandoned ||
  (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED");

/**
 * What a failed ceremony tells the person. The browser reports every refusal as `NotAllowedError`
 * (cancelled, timed out, no passkey, verification failed) and on purpose does not say which.
 */
export function failureOf(error: unknown): PasskeyFailure {
  if (error instanceof FlowStateError) return error.flow.error ?? "unexpected";
  if (error instanceof ApiError) return error.code;
  return "cancelled";
}
