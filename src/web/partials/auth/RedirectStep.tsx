import { useId, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Trans } from "../../i18n/Trans.tsx";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { redirectCountdownSeconds } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { StepFooter } from "./StepForm.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { useCountdown } from "./useCountdown.ts";
import { failureMessage, useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

interface RedirectStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly onFlow: OnFlow;
  /** Back to the identity step, to choose again. */
  readonly onBack: () => void;
}

/** The identity is chosen (or the person declined): counts down, then sends the browser back to the app. */
export function RedirectStep({ flowId, flow, onFlow, onBack }: RedirectStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { pending, failure, run } = useStepAction(onFlow);
  const [redirecting, setRedirecting] = useState(false);
  useFocusOnMount(heading);

  async function redirect(): Promise<void> {
    if (redirecting) return;
    setRedirecting(true);
    // On success the page is already on its way to the app.
    if (!(await run("redirect", () => postStep("AuthFlowRedirect", flowId, {})))) setRedirecting(false);
  }

  const { remaining, paused, setPaused } = useCountdown(redirectCountdownSeconds, () => void redirect());
  const declined = flow.completed.at(-1) === "declined";

  return (
    <section aria-labelledby={headingId} className="flex flex-col items-center gap-5 text-center">
      <CountdownRing remaining={remaining} total={redirectCountdownSeconds} paused={paused} />
      <StepHeading id={headingId} ref={heading}>
        <Trans
          i18nKey={declined ? "authFlow.redirect.declined" : "authFlow.redirect.identity"}
          values={{ appName: flow.appName }}
          components={{ strong: <strong /> }}
        />
      </StepHeading>
      <div className="flex flex-col gap-1">
        <p role="status" className="font-medium">
          {redirecting
            ? t("authFlow.redirect.redirecting")
            : paused
              ? t("authFlow.redirect.paused")
              : t("authFlow.redirect.countdown", { count: remaining })}
        </p>
        {!paused && !redirecting && (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("authFlow.redirect.escHint")}</p>
        )}
      </div>
      {failure && <Alert message={failureMessage(t, failure)} />}
      <div className="flex w-full flex-col gap-3">
        <Button size="large" busy={redirecting} onClick={() => void redirect()}>
          {t("authFlow.redirect.now")}
        </Button>
        <Button variant="secondary" size="large" disabled={redirecting} onClick={() => setPaused(!paused)}>
          {paused ? t("authFlow.redirect.resume") : t("authFlow.redirect.pause")}
        </Button>
      </div>
      <div className="w-full">
        <StepFooter>
          <Button variant="link" disabled={redirecting} onClick={onBack}>
            {t("authFlow.redirect.back")}
          </Button>
          {!declined && (
            <Button
              variant="link"
              disabled={redirecting}
              busy={pending === "decline"}
              onClick={() => void run("decline", () => postStep("AuthFlowDecline", flowId, {}))}
            >
              {t("authFlow.redirect.decline")}
            </Button>
          )}
        </StepFooter>
      </div>
    </section>
  );
}

const radius = 26;
const circumference = 2 * Math.PI * radius;

/** The seconds left as a shrinking ring around their number; the status line says it in words. */
export function CountdownRing({
  remaining,
  total,
  paused,
}: {
  readonly remaining: number;
  readonly total: number;
  readonly paused: boolean;
}) {
  const elapsed = (total - remaining) / total;
  return (
    <div aria-hidden="true" className="relative size-16">
      <svg viewBox="0 0 64 64" className="size-16 -rotate-90">
        <circle
          cx="32"
          cy="32"
          r={radius}
          fill="none"
          strokeWidth="5"
          className="stroke-slate-200 dark:stroke-slate-700"
        />
        <circle
          cx="32"
          cy="32"
          r={radius}
          fill="none"
          strokeWidth="5"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * elapsed}
          className={`transition-[stroke-dashoffset] duration-1000 ease-linear motion-reduce:transition-none ${paused ? "stroke-slate-400" : "stroke-blue-600 dark:stroke-blue-400"}`}
        />
      </svg>
      <span className="absolute inset-0 flex items-center justify-center text-xl font-semibold tabular-nums">
        {remaining}
      </span>
    </div>
  );
}
