import { useId, useRef } from "react";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { toTheMinute, useFormatTimestamp } from "../../format.ts";
import { useTranslation } from "../../i18n/index.ts";
import { postStep } from "./flowApi.ts";
import { StepHeading } from "./StepHeading.tsx";
import { failureMessage, useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

interface KeepAccountStepProps {
  readonly flowId: string;
  /** When the account will be deleted (ISO 8601). */
  readonly dueAt: string;
  readonly onFlow: OnFlow;
}

/**
 * The person signed in to an account they asked to delete: it is deleted on the date shown unless they
 * keep it. Keeping it goes on with the sign-in; leaving tells the app no and keeps the deletion.
 */
export function KeepAccountStep({ flowId, dueAt, onFlow }: KeepAccountStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const formatTimestamp = useFormatTimestamp(toTheMinute);
  const action = useStepAction(onFlow);
  useFocusOnMount(heading);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950/50">
        <StepHeading id={headingId} ref={heading}>
          {t("authFlow.keepAccount.heading", { date: formatTimestamp(dueAt) })}
        </StepHeading>
        <p className="text-slate-800 dark:text-slate-200">{t("authFlow.keepAccount.intro")}</p>
      </div>
      {action.failure !== null && <Alert message={failureMessage(t, action.failure)} />}
      <div className="flex flex-col gap-3">
        <Button
          size="large"
          className="w-full"
          busy={action.pending === "keep"}
          disabled={action.busy && action.pending !== "keep"}
          onClick={() => void action.run("keep", () => postStep("AuthFlowDeletionCancel", flowId, {}))}
        >
          {t("authFlow.keepAccount.keep")}
        </Button>
        <Button
          size="large"
          variant="secondary"
          className="w-full"
          busy={action.pending === "leave"}
          disabled={action.busy && action.pending !== "leave"}
          onClick={() => void action.run("leave", () => postStep("AuthFlowDecline", flowId, {}))}
        >
          {t("authFlow.keepAccount.leave")}
        </Button>
      </div>
    </section>
  );
}
