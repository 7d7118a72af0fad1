import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";

/**
 * The state of one of several action buttons of which one runs at a time: the running one shows it
 * is busy (and keeps the focus), the others are disabled until it is done.
 */
export function actionButton(busyKey: string | null, key: string): { busy: boolean; disabled: boolean } {
  return { busy: busyKey === key, disabled: busyKey !== null && busyKey !== key };
}

export interface Action {
  readonly busy: boolean;
  readonly error: ApiError | null;
  /** Announced after the last action succeeded; cleared by the next action or edit. */
  readonly message: string;
  /** Which action the message or error is about (its `key`). */
  readonly doneKey: string | null;
  /**
   * Runs one action at a time; a failure is kept for {@link ActionFeedback}, a success says `done`.
   * `key` names the action (e.g. the item it is about), so that its own button shows the busy state.
   */
  readonly run: (action: () => Promise<void>, done: string, key?: string) => Promise<void>;
  /** The `busy` and `disabled` props of the button of the action of this key ({@link actionButton}). */
  readonly button: (key: string) => { busy: boolean; disabled: boolean };
  /** Forgets the last outcome (the person changed something since). */
  readonly clear: () => void;
}

/** The state of buttons that act at once (no form): busy while one runs, then its outcome. */
export function useAction(): Action {
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [message, setMessage] = useState("");
  const [doneKey, setDoneKey] = useState<string | null>(null);
  const busy = busyKey !== null;

  function clear(): void {
    setError(null);
    setMessage("");
    setDoneKey(null);
  }

  async function run(action: () => Promise<void>, done: string, key = ""): Promise<void> {
    if (busy) return;
    setBusyKey(key);
    clear();
    try {
      await action();
      setMessage(done);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError("unexpected", 0));
    } finally {
      setDoneKey(key);
      setBusyKey(null);
    }
  }

  return {
    busy,
    error,
    message,
    doneKey,
    run,
    button: (key) => actionButton(busyKey, key),
    clear,
  };
}

/**
 * The outcome of the last action: its translated error, or its success message for screen readers
 * too. Put it next to the buttons it confirms; with `only`, it speaks of the action of that key
 * alone. The next edit on the page clears it, so that it never stands beside a newer state.
 */
export function ActionFeedback({ action, only }: { readonly action: Action; readonly only?: string }) {
  const { t } = useTranslation();
  const status = useRef<HTMLParagraphElement>(null);
  const { clear } = action;
  const shown = only === undefined || action.doneKey === only;
  const hasOutcome = action.message !== "" || action.error !== null;

  useEffect(() => {
    const around = status.current?.closest("main");
    if (!around || !hasOutcome) return;
    around.addEventListener("input", clear);
    return () => around.removeEventListener("input", clear);
  }, [hasOutcome, clear]);

  return (
    <>
      {shown && action.error && <Alert message={errorMessage(t, action.error.code, action.error.values)} />}
      <p ref={status} role="status" className="font-medium text-green-800 dark:text-green-300">
        {shown ? action.message : ""}
      </p>
    </>
  );
}
