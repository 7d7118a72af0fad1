import { WebAuthnAbortService } from "@simplewebauthn/browser";
import type { TFunction } from "../../i18n/index.ts";
import { useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { errorMessage, FlowStateError } from "../../api.ts";
import { signalUnknownPasskey } from "../../passkeySignals.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { PasskeyIcon } from "../../components/icons.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { isFlowError, mistakeMessage } from "./steps.ts";
import {
  failureOf,
  signInWithPasskey,
  wasAbandoned,
  type PasskeyAttempt,
  type PasskeyFailure,
} from "./passkeyCeremony.ts";
import type { OnFlow } from "./useStepAction.ts";
import { isNamingMistake, signUpWithPasskey, type PasskeyNaming } from "./passkeySignUp.ts";
import { PasskeyNameForm } from "./PasskeyNameForm.tsx";
import type { SignUpNameError } from "../../../common/api/flow.ts";
import { StepFooter } from "./StepForm.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { flowGoneError, FlowGoneContext } from "./flowGone.ts";

/**
 * Where the step is: a sign-up being named, a ceremony under way, or the last one failed and the
 * person chooses what next.
 */
export type PasskeyPhase =
  | { kind: "naming"; mistake: SignUpNameError | null }
  | { kind: "waiting"; attempt: PasskeyAttempt }
  | { kind: "failed"; attempt: PasskeyAttempt; failure: PasskeyFailure };

interface PasskeyStepProps {
  readonly flowId: string;
  /** Signing in at once, or the failure of a sign-in that began on the start step (autofill). */
  readonly initial: PasskeyPhase;
  readonly onFlow: OnFlow;
  readonly onOtherMethod: () => void;
}

/**
 * Signing in with a passkey, and when that fails, signing up with one (reference §4.7.3-§4.7.4): the
 * failure screen offers a passkey sign-up, another sign-in, and after a failed sign-up another one.
 * A sign-up first asks what to call the new identity.
 */
export function PasskeyStep({ flowId, initial, onFlow, onOtherMethod }: PasskeyStepProps) {
  const { t, language } = useTranslation();
  const [phase, setPhase] = useState(initial);
  const [naming, setNaming] = useState<PasskeyNaming>({ name: "", email: "" });
  const heading = useRef<HTMLHeadingElement>(null);
  const ceremony = useRef<AbortController>(null);
  const flowGone = useContext(FlowGoneContext);

  function attempt(kind: PasskeyAttempt): void {
    setPhase({ kind: "waiting", attempt: kind });
    void runCeremony(kind);
  }

  function signUp(): void {
    if (naming.name.trim() === "") setPhase({ kind: "naming", mistake: "missingName" });
    else attempt("signUp");
  }

  async function runCeremony(kind: PasskeyAttempt): Promise<void> {
    const controller = new AbortController();
    ceremony.current = controller;
    try {
      const { signal } = controller;
      await onFlow(
        await (kind === "signIn"
          ? signInWithPasskey(flowId, { signal })
          : signUpWithPasskey(flowId, naming, language, signal)),
      );
    } catch (error) {
      if (wasAbandoned(error)) return;
      const gone = flowGoneError(error);
      if (gone) return flowGone(gone);
      if (error instanceof FlowStateError) {
        signalUnknownPasskey(error.flow.signalUnknown);
        // The flow failed (too many attempts): its state is the answer.
        if (error.flow.error === undefined) return await onFlow(error.flow);
        if (isNamingMistake(error.flow.error)) return setPhase({ kind: "naming", mistake: error.flow.error });
      }
      setPhase({ kind: "failed", attempt: kind, failure: failureOf(error) });
    }
  }

  function cancel(kind: PasskeyAttempt): void {
    ceremony.current?.abort();
    WebAuthnAbortService.cancelCeremony();
    setPhase({ kind: "failed", attempt: kind, failure: "cancelled" });
  }

  // The step starts the ceremony it was opened for, once (development's strict mode mounts it twice).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (initial.kind === "waiting") void runCeremony(initial.attempt);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (phase.kind === "failed") heading.current?.focus();
  }, [phase]);

  // Leaving the step stops a ceremony under way, so that the browser's dialog does not outlive it.
  useEffect(() => () => WebAuthnAbortService.cancelCeremony(), []);

  if (phase.kind === "naming") {
    return (
      <PasskeyNameForm
        naming={naming}
        onChange={setNaming}
        mistake={phase.mistake}
        onSubmit={signUp}
        onOtherMethod={onOtherMethod}
      />
    );
  }

  if (phase.kind === "waiting") {
    const signingIn = phase.attempt === "signIn";
    return (
      <div className="flex flex-col gap-5">
        <StepHeading>
          {signingIn ? t("authFlow.passkey.signInHeading") : t("authFlow.passkey.signUpHeading")}
        </StepHeading>
        <div role="status" className="flex items-center gap-4 rounded-lg bg-slate-50 p-4 dark:bg-slate-800">
          <span className="grid size-12 shrink-0 place-items-center rounded-full bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200">
            <PasskeyIcon className="size-6" />
          </span>
          <p className="flex-1">
            {signingIn ? t("authFlow.passkey.waitingSignIn") : t("authFlow.passkey.waitingSignUp")}
          </p>
          <Spinner />
        </div>
        <StepFooter>
          <Button variant="link" onClick={() => cancel(phase.attempt)}>
            {t("authFlow.passkey.cancel")}
          </Button>
        </StepFooter>
      </div>
    );
  }

  const signUpFailed = phase.attempt === "signUp";
  return (
    <div className="flex flex-col gap-5">
      <StepHeading ref={heading}>
        {signUpFailed ? t("authFlow.passkey.signUpFailed") : t("authFlow.passkey.signInFailed")}
      </StepHeading>
      <Alert message={passkeyFailureMessage(t, phase.failure)} />
      <p>{signUpFailed ? t("authFlow.passkey.signUpWarning") : t("authFlow.passkey.newHere")}</p>
      <div className="flex flex-col gap-3">
        <Button size="large" className="w-full" onClick={() => setPhase({ kind: "naming", mistake: null })}>
          <PasskeyIcon />
          {signUpFailed ? t("authFlow.passkey.retrySignUp") : t("authFlow.passkey.signUp")}
        </Button>
        <Button variant="secondary" size="large" className="w-full" onClick={() => attempt("signIn")}>
          {t("authFlow.passkey.retrySignIn")}
        </Button>
      </div>
      <StepFooter>
        <Button variant="link" onClick={onOtherMethod}>
          {t("authFlow.passkey.otherMethod")}
        </Button>
      </StepFooter>
    </div>
  );
}

/** What the person reads about a ceremony that did not work. */
export function passkeyFailureMessage(t: TFunction, failure: PasskeyFailure): string {
  if (failure === "cancelled") return t("authFlow.passkey.cancelled");
  if (failure === "noAccount") return t("authFlow.passkey.noAccount");
  if (isFlowError(failure)) return mistakeMessage(t, failure, "");
  return errorMessage(t, failure);
}
