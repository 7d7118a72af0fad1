import { useId, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { redirectCountdownSeconds } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { StepHeading } from "./StepHeading.tsx";
import { useCountdown } from "./useCountdown.ts";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface RedirectStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly onFlow: (flow: FlowResponse) => void;
  /** Back to the identity step, to choose again. */
  readonly onBack: () => void;
}

/** The identity is chosen (or the person declined): counts down, then sends the browser back to the app. */
export function RedirectStep({ flowId, flow, onFlow, onBack }: RedirectStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { failure, run } = useStepAction(onFlow);
  const [redirecting, setRedirecting] = useState(false);
  useFocusOnMount(heading);

  async function redirect(): Promise<void> {
    if (redirecting) return;
    setRedirecting(true);
    // On success the page is already on its way to the app.
    if (!(await run(() => postStep("AuthFlowRedirect", flowId, {})))) setRedirecting(false);
  }

  const { remaining, paused, setPaused } = useCountdown(redirectCountdownSeconds, () => void redirect());
  const declined = flow.completed.at(-1) === "declined";

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <StepHeading id={headingId} ref={heading}>
        <Trans
          i18nKey={declined ? "authFlow.redirect.declined" : "authFlow.redirect.identity"}
          values={{ appName: flow.appName }}
          components={{ strong: <strong /> }}
        />
      </StepHeading>
      <p role="status">
        {redirecting
          ? t("authFlow.redirect.redirecting")
          : paused
            ? t("authFlow.redirect.paused")
            : t("authFlow.redirect.countdown", { count: remaining })}
      </p>
      {!paused && !redirecting && <p className="text-sm text-slate-700">{t("authFlow.redirect.escHint")}</p>}
      {failure && <Alert message={t("errors.unexpected")} />}
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => void redirect()}>{t("authFlow.redirect.now")}</Button>
        <Button variant="secondary" disabled={redirecting} onClick={() => setPaused(!paused)}>
          {paused ? t("authFlow.redirect.resume") : t("authFlow.redirect.pause")}
        </Button>
        <Button variant="secondary" disabled={redirecting} onClick={onBack}>
          {t("authFlow.redirect.back")}
        </Button>
      </div>
    </section>
  );
}
