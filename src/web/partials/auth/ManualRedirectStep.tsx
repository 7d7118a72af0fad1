import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { StepHeading } from "./StepHeading.tsx";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface ManualRedirectStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly onFlow: (flow: FlowResponse) => void;
}

const isWebAddress = (address: string) => /^https?:\/\//i.test(address);

/** The flow failed (the app gets access_denied on Return) or has already finished. */
export function ManualRedirectStep({ flowId, flow, onFlow }: ManualRedirectStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { failure, run } = useStepAction(onFlow);
  useFocusOnMount(heading);

  const state = flow.completed.at(-1);
  if (state === "failed") {
    return (
      <section aria-labelledby={headingId} className="flex flex-col gap-5">
        <StepHeading id={headingId} ref={heading}>
          {t("authFlow.manual.failed")}
        </StepHeading>
        {failure && <Alert message={t("errors.unexpected")} />}
        <div>
          <Button onClick={() => void run(() => postStep("AuthFlowRedirect", flowId, {}))}>
            {t("authFlow.manual.return")}
          </Button>
        </div>
      </section>
    );
  }
  if (state === "finished") {
    return (
      <section aria-labelledby={headingId} className="flex flex-col gap-5">
        <StepHeading id={headingId} ref={heading}>
          {t("authFlow.manual.finished")}
        </StepHeading>
        {flow.homepage && isWebAddress(flow.homepage) && (
          <p>
            <a href={flow.homepage} className="font-medium text-blue-800 underline underline-offset-4">
              {t("authFlow.manual.homepage")}
            </a>
          </p>
        )}
      </section>
    );
  }
  // The server answered the page instead of sending the browser back to the app.
  return <Alert message={t("errors.unexpected")} />;
}
