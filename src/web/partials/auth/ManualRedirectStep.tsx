import { useTranslation } from "../../i18n/index.ts";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { MessagePanel } from "../../components/MessagePanel.tsx";
import { WayBack } from "./WayBack.tsx";
import { failureMessage, useStepAction, type OnFlow } from "./useStepAction.ts";
import { useProviderLabel } from "../../providers.ts";

interface ManualRedirectStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly onFlow: OnFlow;
}

/** How a finished flow ended: the state before it was made ready to finish. */
const outcomeOf = (flow: FlowResponse) => flow.completed.at(-3);

/**
 * The flow failed (Return sends the app access_denied) or has already finished (spec §4's flow end
 * messages); either way the person learns what happened and gets a way back.
 */
export function ManualRedirectStep({ flowId, flow, onFlow }: ManualRedirectStepProps) {
  const { t } = useTranslation();
  const { pending, failure, run } = useStepAction(onFlow);
  const appName = flow.appName;
  const providerLabel = useProviderLabel();

  const state = flow.completed.at(-1);
  if (state === "failed") {
    return (
      <MessagePanel
        tone="failed"
        heading={t("authFlow.manual.failed")}
        actions={
          <>
            {failure && <Alert message={failureMessage(t, failure)} />}
            <Button
              size="large"
              busy={pending === "return"}
              onClick={() => void run("return", () => postStep("AuthFlowRedirect", flowId, {}))}
            >
              {t("authFlow.manual.return", { appName })}
            </Button>
          </>
        }
      >
        <p>
          {flow.providerError
            ? t(
                flow.providerError.error === "denied"
                  ? "authFlow.manual.providerDenied"
                  : "authFlow.manual.providerFailed",
                { appName, provider: providerLabel(flow.providerError.provider) },
              )
            : t("authFlow.manual.failedText", { appName })}
        </p>
      </MessagePanel>
    );
  }
  if (state === "finished") {
    const outcome = outcomeOf(flow);
    return (
      <MessagePanel
        tone={outcome === "identity" ? "done" : "gone"}
        heading={t("authFlow.manual.finished")}
        actions={<WayBack appName={appName} homepage={flow.homepage} />}
      >
        <p>
          {outcome === "identity"
            ? t("authFlow.manual.finishedSignedIn", { appName })
            : outcome === "declined"
              ? t("authFlow.manual.finishedDeclined", { appName })
              : t("authFlow.manual.finishedFailed", { appName })}
        </p>
      </MessagePanel>
    );
  }
  // The server answered the page instead of sending the browser back to the app.
  return (
    <MessagePanel
      tone="failed"
      heading={t("errors.unexpected")}
      actions={<WayBack appName={appName} homepage={flow.homepage} />}
    />
  );
}
