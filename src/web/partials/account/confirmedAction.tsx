import { useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";

type Outcome = { message: string } | { error: string } | null;

/**
 * An action on one item of a list that the person confirms first: which item is asked about, which is
 * being acted on, and how the last one went (said to screen readers too).
 */
export function useConfirmedAction<T>() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<T | null>(null);
  const [running, setRunning] = useState<T | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function run(item: T, action: () => Promise<void>, done: string): Promise<void> {
    setConfirming(null);
    setRunning(item);
    setOutcome(null);
    try {
      await action();
      setOutcome({ message: done });
    } catch (caught) {
      setOutcome({ error: errorMessage(t, caught instanceof ApiError ? caught.code : "unexpected") });
    } finally {
      setRunning(null);
    }
  }

  return { confirming, ask: setConfirming, cancel: () => setConfirming(null), running, run, outcome };
}

/** How the last action went: an alert for an error, a status line otherwise. */
export function ActionOutcome({ outcome }: { readonly outcome: Outcome }) {
  return (
    <>
      {outcome && "error" in outcome && <Alert message={outcome.error} />}
      <p role="status" className="font-medium text-slate-800 empty:hidden dark:text-slate-200">
        {outcome && "message" in outcome ? outcome.message : ""}
      </p>
    </>
  );
}
