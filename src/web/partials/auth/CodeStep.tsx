import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { codeLength } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import { postStep } from "./flowApi.ts";
import { StepHeading } from "./StepHeading.tsx";
import { isEmail, mistakeMessage } from "./steps.ts";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

const codePattern = new RegExp(`^\\d{${codeLength}}$`);

interface CodeStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly emailOrUsername: string;
  /** A code from the e-mail's link, filled in but not sent until the person confirms it. */
  readonly codeFromLink: string | null;
  readonly onFlow: (flow: FlowResponse) => void;
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
  const headingId = useId();
  const [code, setCode] = useState(codeFromLink ?? "");
  const input = useRef<HTMLInputElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const { failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(codeFromLink === null ? input : submitButton);

  function submit(): void {
    // People copy codes with spaces in them; the server ignores whitespace too.
    const digits = code.replace(/\s/g, "");
    if (!codePattern.test(digits)) {
      mistake("codeFormat");
      return;
    }
    void run(() => postStep("AuthFlowCodeComplete", flowId, { code: digits }));
  }

  const recipient = flow.emailOrUsername ?? emailOrUsername;
  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="flex flex-col gap-5"
    >
      <StepHeading id={headingId}>{t("authFlow.code.heading")}</StepHeading>
      {recipient !== "" && (
        <p>
          {isEmail(recipient)
            ? t("authFlow.code.sentToEmail", { email: recipient })
            : t("authFlow.code.sentToUsername", { username: recipient })}
        </p>
      )}
      {codeFromLink !== null && (
        <p className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950">
          {t("authFlow.code.fromLink", { appName: flow.appName })}
        </p>
      )}
      <TextField
        ref={input}
        label={t("authFlow.code.label")}
        hint={t("authFlow.code.hint")}
        error={failure?.kind === "mistake" ? mistakeMessage(t, failure.mistake, recipient) : null}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        className="max-w-48 font-mono tracking-widest"
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      {failure?.kind === "other" && <Alert message={t("errors.unexpected")} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" ref={submitButton}>
          {t("authFlow.code.submit")}
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            void run(() => postStep("AuthFlowCodeStart", flowId, { emailOrUsername: recipient }))
          }
        >
          {t("authFlow.code.resend")}
        </Button>
        <p role="status" className="text-sm text-slate-700">
          {flow.codesSent ? t("authFlow.code.sent", { count: flow.codesSent }) : ""}
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button variant="link" onClick={onOtherMethod}>
          {t("authFlow.code.otherMethod")}
        </Button>
        {onBack && (
          <Button variant="secondary" onClick={onBack}>
            {t("authFlow.code.back")}
          </Button>
        )}
      </div>
    </form>
  );
}
