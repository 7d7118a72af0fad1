import { useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { codeLength } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { StepForm } from "./StepForm.tsx";
import { useCountdown } from "./useCountdown.ts";
import { isEmail } from "./steps.ts";
import { useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

const codePattern = new RegExp(`^\\d{${codeLength}}$`);

interface CodeStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly emailOrUsername: string;
  /** A code from the e-mail's link, filled in but not sent until the person confirms it. */
  readonly codeFromLink: string | null;
  readonly onFlow: OnFlow;
  readonly onOtherMethod: () => void;
  /** Back to the password step, when the flow went through it. */
  readonly onBack: (() => void) | null;
}

export function CodeStep({
  flowId,
  flow,
  emailOrUsername,
  codeFromLink,
  onFlow,
  onOtherMethod,
  onBack,
}: CodeStepProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState(codeFromLink ?? "");
  const input = useRef<HTMLInputElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const { pending, failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(codeFromLink === null ? input : submitButton);

  function submit(): void {
    // People copy codes with spaces in them; the server ignores whitespace too.
    const digits = code.replace(/\s/g, "");
    if (!codePattern.test(digits)) {
      mistake("codeFormat");
      return;
    }
    void run("submit", () => postStep("AuthFlowCodeComplete", flowId, { code: digits }));
  }

  const recipient = flow.emailOrUsername ?? emailOrUsername;
  const resend = () =>
    void run("resend", () => postStep("AuthFlowCodeStart", flowId, { emailOrUsername: recipient }));
  return (
    <StepForm
      heading={t("authFlow.code.heading")}
      onSubmit={submit}
      emailOrUsername={recipient}
      failure={failure}
      intro={
        <>
          {flow.codeAfterPassword === "wrong" ? (
            <p className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              {t("authFlow.code.afterWrongPassword", { username: recipient })}
            </p>
          ) : (
            recipient !== "" && (
              <p>
                {flow.codeAfterPassword === "undisclosed"
                  ? t("authFlow.code.afterPasswordForEmail", { email: recipient })
                  : isEmail(recipient)
                    ? t("authFlow.code.sentToEmail", { email: recipient })
                    : t("authFlow.code.sentToUsername", { username: recipient })}
              </p>
            )
          )}
          {codeFromLink !== null && (
            <p className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              {t("authFlow.code.fromLink", { appName: flow.appName })}
            </p>
          )}
        </>
      }
      field={{
        ref: input,
        label: t("authFlow.code.label"),
        hint: t("authFlow.code.hint"),
        name: "code",
        inputMode: "numeric",
        autoComplete: "one-time-code",
        className: "text-center font-mono text-2xl tracking-[0.4em]",
        value: code,
        onChange: (event) => setCode(event.target.value),
      }}
      submitLabel={t("authFlow.code.submit")}
      submitting={pending === "submit"}
      submitRef={submitButton}
      alternatives={
        <>
          <ResendButton
            // Each code sent starts its own wait.
            key={flow.codesSent}
            waitSeconds={flow.resendInSeconds ?? 0}
            busy={pending === "resend"}
            onResend={resend}
          />
          <p role="status" className="text-center text-sm text-slate-600 empty:sr-only dark:text-slate-400">
            {flow.codesSent ? t("authFlow.code.sent", { count: flow.codesSent }) : ""}
          </p>
        </>
      }
      footer={
        <>
          <Button variant="link" onClick={onOtherMethod}>
            {t("authFlow.code.otherMethod")}
          </Button>
          {onBack && (
            <Button variant="link" onClick={onBack}>
              {t("authFlow.code.back")}
            </Button>
          )}
        </>
      }
    />
  );
}

interface ResendButtonProps {
  /** Seconds until the server sends another code: the button counts them down, disabled. */
  readonly waitSeconds: number;
  readonly busy: boolean;
  readonly onResend: () => void;
}

function ResendButton({ waitSeconds, busy, onResend }: ResendButtonProps) {
  const { t } = useTranslation();
  const { remaining } = useCountdown(waitSeconds, () => undefined, { pausable: false });
  return (
    <Button variant="secondary" size="large" busy={busy} disabled={remaining > 0} onClick={onResend}>
      {remaining > 0 ? t("authFlow.code.resendIn", { seconds: remaining }) : t("authFlow.code.resend")}
    </Button>
  );
}
