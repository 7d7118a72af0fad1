import { browserSupportsWebAuthnAutofill, WebAuthnAbortService } from "@simplewebauthn/browser";
import { useContext, useEffect, useRef, useState } from "react";
import { ApiError, FlowStateError } from "../../api.ts";
import { signalUnknownPasskey } from "../../passkeySignals.ts";
import { flowGoneError, FlowGoneContext } from "./flowGone.ts";
import { failureOf, signInWithPasskey, wasAbandoned } from "./passkeyCeremony.ts";
import type { PasskeyPhase } from "./PasskeyStep.tsx";
import type { OnFlow } from "./useStepAction.ts";

/**
 * While the start step is open, the browser offers the person's passkeys for this site in the
 * autofill list of the identifier field (conditional mediation): picking one signs in at once, and
 * typing a username works as before. Returns whether a picked passkey is being checked.
 */
export function usePasskeyAutofill(
  flowId: string,
  onFlow: OnFlow,
  onFailure: (phase: PasskeyPhase) => void,
): boolean {
  const [checking, setChecking] = useState(false);
  const flowGone = useContext(FlowGoneContext);
  // The latest handlers, so that the request runs once per visit of the step, not once per render.
  const handlers = useRef({ onFlow, onFailure });
  useEffect(() => {
    handlers.current = { onFlow, onFailure };
  });

  useEffect(() => {
    const visit = new AbortController();
    const left = () => visit.signal.aborted;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || left()) return;
      try {
        const flow = await signInWithPasskey(flowId, {
          autofill: true,
          signal: visit.signal,
          onAnswer: () => setChecking(true),
        });
        await handlers.current.onFlow(flow);
      } catch (error) {
        setChecking(false);
        // The browser ends the request when it has nothing to offer or the person dismisses the
        // list: autofill then just does not offer passkeys. Only the server's refusal is news.
        if (left() || wasAbandoned(error) || !(error instanceof ApiError)) return;
        const gone = flowGoneError(error);
        if (gone) return flowGone(gone);
        if (error instanceof FlowStateError) {
          signalUnknownPasskey(error.flow.signalUnknown);
          if (error.flow.error === undefined) return await handlers.current.onFlow(error.flow);
        }
        handlers.current.onFailure({ kind: "failed", attempt: "signIn", failure: failureOf(error) });
      }
    })();
    // Leaving the step (or starting another ceremony, which aborts this one) ends the request.
    return () => {
      visit.abort();
      WebAuthnAbortService.cancelCeremony();
    };
  }, [flowId, flowGone]);

  return checking;
}
