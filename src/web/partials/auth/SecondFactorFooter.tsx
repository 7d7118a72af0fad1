import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { postStep } from "./flowApi.ts";
import { StepFooter } from "./StepForm.tsx";
import { failureMessage, useStepAction, type OnFlow } from "./useStepAction.ts";

export interface SecondFactorExits {
  readonly flowId: string;
  readonly onFlow: OnFlow;
  /** Back to the start: the server forgets the first factor, so someone else may sign in. */
  readonly onRestart: () => void;
  readonly restarting: boolean;
}

/** The ways out of the second factor: signing in as someone else, or declining the app altogether. */
export function SecondFactorFooter({ flowId, onFlow, onRestart, restarting }: SecondFactorExits) {
  const { t } = useTranslation();
  const decline = useStepAction(onFlow);
  return (
    <>
      {decline.failure && <Alert message={failureMessage(t, decline.failure)} />}
      <StepFooter>
        <Button variant="link" busy={restarting} onClick={onRestart}>
          {t("authFlow.secondFactor.restart")}
        </Button>
        <Button
          variant="link"
          busy={decline.busy}
          onClick={() => void decline.run("decline", () => postStep("AuthFlowDecline", flowId, {}))}
        >
          {t("authFlow.secondFactor.decline")}
        </Button>
      </StepFooter>
    </>
  );
}
