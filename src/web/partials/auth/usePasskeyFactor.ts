import { WebAuthnAbortService } from "@simplewebauthn/browser";
import { useContext, useEffect, useState } from "react";
import { FlowStateError } from "../../api.ts";
import { useTranslation } from "../../i18n/index.ts";
import { flowGoneError, FlowGoneContext } from "./flowGone.ts";
import { failureOf, signInWithPasskey, wasAbandoned, type PasskeyFailure } from "./passkeyCeremony.ts";
import { addPasskey } from "./passkeySignUp.ts";
import type { OnFlow } from "./useStepAction.ts";

/**
 * A passkey as the second factor: `prove` uses one of the account's passkeys, `create` adds a new one
 * as the factor set up now. The step stays while the browser asks; a failure stays at the step to be
 * tried again, except a failed flow, whose state is the answer.
 */
export function usePasskeyFactor(flowId: string, onFlow: OnFlow) {
  const { language } = useTranslation();
  const flowGone = useContext(FlowGoneContext);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<PasskeyFailure | null>(null);

  // Leaving the step stops a ceremony under way, so that the browser's dialog does not outlive it.
  useEffect(() => () => WebAuthnAbortService.cancelCeremony(), []);

  async function run(ceremony: () => Promise<Parameters<OnFlow>[0]>): Promise<void> {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await onFlow(await ceremony());
    } catch (error) {
      if (wasAbandoned(error)) return;
      const gone = flowGoneError(error);
      if (gone) return flowGone(gone);
      if (error instanceof FlowStateError && error.flow.error === undefined) return await onFlow(error.flow);
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    failure,
    prove: () => void run(() => signInWithPasskey(flowId)),
    create: () => void run(() => addPasskey(flowId, language)),
  };
}
