import { useEffect, useState, type RefObject } from "react";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { ApiError, FlowStateError } from "../../api.ts";
import type { StepMistake } from "./steps.ts";

/** A mistake the person can correct at the step, or any other failure with its error code. */
export type StepFailure = { kind: "mistake"; mistake: StepMistake } | { kind: "other"; code: string };

/**
 * Runs a step's call and hands its answer to `onFlow`. A mistake stays at the step and moves focus to
 * `field`, whose error message is linked to it; a 400 carrying a state without a mistake (the flow
 * failed) is an answer like any other.
 */
export function useStepAction(onFlow: (flow: FlowResponse) => void, field?: RefObject<HTMLElement | null>) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<StepFailure | null>(null);

  useEffect(() => {
    if (failure?.kind === "mistake") field?.current?.focus();
  }, [failure, field]);

  async function run(call: () => Promise<FlowResponse>): Promise<boolean> {
    if (busy) return false;
    setBusy(true);
    setFailure(null);
    try {
      onFlow(await call());
      return true;
    } catch (error) {
      if (!(error instanceof FlowStateError))
        setFailure({ kind: "other", code: error instanceof ApiError ? error.code : "unexpected" });
      else if (error.flow.error === undefined) onFlow(error.flow);
      else setFailure({ kind: "mistake", mistake: error.flow.error });
      return false;
    } finally {
      setBusy(false);
    }
  }

  const mistake = (value: StepMistake) => setFailure({ kind: "mistake", mistake: value });
  return { busy, failure, mistake, run };
}

export function useFocusOnMount(element: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    element.current?.focus();
  }, [element]);
}
