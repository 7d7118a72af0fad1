import { useId, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Trans } from "../../i18n/Trans.tsx";
import { providerCountdownSeconds } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { CountdownRing } from "./RedirectStep.tsx";
import { StepFooter } from "./StepForm.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { useCountdown } from "./useCountdown.ts";
import { failureMessage, useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

interface ProviderStepProps {
  readonly flowId: string;
  readonly provider: { readonly key: string; readonly name: string };
  readonly onFlow: OnFlow;
  /** Back to the start step, to choose another way. */
  readonly onBack: () => void;
}

/**
 * The person chose a third-party provider (spec §2): the page says where it goes, counts down (Pause,
 * Resume, Esc pauses, Back), then sends the browser to the provider to sign in there.
 */
export function ProviderStep({ flowId, provider, onFlow, onBack }: ProviderStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [destination, setDestination] = useState<string | null>(null);
  const { failure, run } = useStepAction((flow) => {
    const location = flow.thirdPartyProvider?.location;
    if (location === undefined) return onFlow(flow);
    setDestination(new URL(location).host);
    window.location.replace(location);
  });
  useFocusOnMount(heading);

  async function redirect(): Promise<void> {
    if (redirecting) return;
    setRedirecting(true);
    const call = () => postStep("AuthFlowProviderStart", flowId, { provider: provider.key });
    if (!(await run("start", call))) setRedirecting(false);
  }

  const { remaining, paused, setPaused } = useCountdown(providerCountdownSeconds, () => void redirect());
  const stopped = paused || failure !== null;

  return (
    <section aria-labelledby={headingId} className="flex flex-col items-center gap-5 text-center">
      <CountdownRing remaining={remaining} total={providerCountdownSeconds} paused={stopped} />
      <StepHeading id={headingId} ref={heading}>
        <Trans
          i18nKey="authFlow.provider.heading"
          values={{ provider: provider.name }}
          components={{ strong: <strong /> }}
        />
      </StepHeading>
      <div className="flex flex-col gap-1">
        <p role="status" className="font-medium">
          {redirecting
            ? t("authFlow.provider.redirecting", { provider: destination ?? provider.name })
            : stopped
              ? t("authFlow.provider.paused")
              : t("authFlow.provider.countdown", { count: remaining })}
        </p>
        {!stopped && !redirecting && (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("authFlow.provider.escHint")}</p>
        )}
      </div>
      {failure && <Alert message={failureMessage(t, failure)} />}
      <div className="flex w-full flex-col gap-3">
        <Button size="large" busy={redirecting} onClick={() => void redirect()}>
          {t("authFlow.provider.now")}
        </Button>
        <Button variant="secondary" size="large" disabled={redirecting} onClick={() => setPaused(!paused)}>
          {paused ? t("authFlow.provider.resume") : t("authFlow.provider.pause")}
        </Button>
      </div>
      <div className="w-full">
        <StepFooter>
          <Button variant="link" disabled={redirecting} onClick={onBack}>
            {t("authFlow.provider.back")}
          </Button>
        </StepFooter>
      </div>
    </section>
  );
}
