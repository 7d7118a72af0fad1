import { useTranslation } from "../../i18n/index.ts";
import { errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import type { Action } from "../../components/useAction.tsx";

/**
 * The last action's translated error, or its success message for screen readers too. Unlike
 * ActionFeedback it listens to no typing of its own: the sections' fields clear it in their change
 * handlers, so that clearing never re-renders a field between the browser's input and React's.
 */
export function MethodFeedback({
  action,
  errorsOf = () => true,
}: {
  readonly action: Action;
  /** Which actions' errors show here (by key); others show next to what they are about. */
  readonly errorsOf?: (key: string | null) => boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {action.error && errorsOf(action.doneKey) && (
        <Alert message={errorMessage(t, action.error.code, action.error.values)} />
      )}
      <p role="status" className="font-medium text-green-800 dark:text-green-300">
        {action.message}
      </p>
    </>
  );
}
