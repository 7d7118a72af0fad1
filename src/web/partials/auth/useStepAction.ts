import { useContext, useEffect, useRef, useState, type RefObject } from "react";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { ApiError, errorMessage, FlowStateError } from "../../api.ts";
import type { TFunction } from "../../i18n/index.ts";
import { flowGoneError, FlowGoneContext } from "./flowGone.ts";
import type { StepMistake } from "./steps.ts";

/** Takes the flow's new state; the step stays busy until the promise it may give settles. */
export type OnFlow = (flow: FlowResponse) => void | Promise<void>;

/** A mistake the person can correct at the step, or any other failure with its error code. */
export type StepFailure = { kind: "mistake"; mistake: StepMistake } | { kind: "other"; code: string };

/**
 * Runs a step's call and hands its answer to `onFlow`. A mistake stays at the step and moves focus to
 * `field`, whose error message is linked to it; a 400 carrying a state without a mistake (the flow
 * failed) is an answer like any other. One call runs at a time; `pending` names the action that
 * started it (the button that shows it is busy), `busy` says whether any runs.
 */
export function useStepAction(onFlow: OnFlow, field?: RefObject<HTMLElement | null>) {
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<StepFailure | null>(null);
  const flowGone = useContext(FlowGoneContext);
  // A second press before React re-renders must not start a second call.
  const running = useRef(false);

  useEffect(() => {
    if (failure?.kind === "mistake") field?.current?.focus();
  }, [failure, field]);

  async function run(action: string, call: () => Promise<FlowResponse>): Promise<boolean> {
    if (running.current) return false;
    running.current = true;
    setPending(action);
    setFailure(null);
    try {
      await onFlow(await call());
      return true;
    } catch (error) {
      const gone = flowGoneError(error);
      if (gone) flowGone(gone);
      else if (!(error instanceof FlowStateError))
        setFailure({ kind: "other", code: error instanceof ApiError ? error.code : "unexpected" });
      else if (error.flow.error === undefined) await onFlow(error.flow);
      else setFailure({ kind: "mistake", mistake: error.flow.error });
      return false;
    } finally {
      running.current = false;
      setPending(null);
    }
  }

  const mistake = (value: StepMistake) => setFailure({ kind: "mistake", mistake: value });
  return { busy: pending !== null, pending, failure, mistake, run };
}

/** What an alert says about a failure that is not a mistake at the step's field. */
export function failureMessage(t: TFunction, failure: StepFailure): string {
  return failure.kind === "other" ? errorMessage(t, failure.code) : t("errors.unexpected");
}

export function useFocusOnMount(element: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    element.current?.focus();
  }, [element]);
}
