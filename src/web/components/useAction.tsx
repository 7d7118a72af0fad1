import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";

export interface Action {
  readonly busy: boolean;
  readonly error: ApiError | null;
  /** Announced after the last action succeeded. */
  readonly message: string;
  /** Runs one action at a time; a failure is kept for {@link ActionFeedback}, a success says `done`. */
  readonly run: (action: () => Promise<void>, done: string) => Promise<void>;
}

/** The state of buttons that act at once (no form): busy while one runs, then its outcome. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [message, setMessage] = useState("");
  async function run(action: () => Promise<void>, done: string): Promise<void> {
    if (busy) return;
    setBusy(true);
    setError(null);
    setMessage("");
    try {
      await action();
      setMessage(done);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError("unexpected", 0));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, message, run };
}

/** The outcome of the last action: its translated error, or its success message for screen readers too. */
export function ActionFeedback({ action }: { readonly action: Action }) {
  const { t } = useTranslation();
  return (
    <>
      {action.error && <Alert message={errorMessage(t, action.error.code, action.error.values)} />}
      <p role="status" className="font-medium text-green-800">
        {action.message}
      </p>
    </>
  );
}
