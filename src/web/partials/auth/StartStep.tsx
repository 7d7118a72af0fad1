import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { usernameOrEmailMinLength } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { MailIcon } from "../../components/icons.tsx";
import { postStep } from "./flowApi.ts";
import { StepForm } from "./StepForm.tsx";
import { characterCount } from "./steps.ts";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface StartStepProps {
  readonly flowId: string;
  readonly emailOrUsername: string;
  readonly onEmailOrUsername: (value: string) => void;
  readonly onFlow: (flow: FlowResponse) => void;
}

export function StartStep({ flowId, emailOrUsername, onEmailOrUsername, onFlow }: StartStepProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(emailOrUsername);
  const input = useRef<HTMLInputElement>(null);
  const { pending, failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(input);

  function start(method: "AuthFlowPasswordStart" | "AuthFlowCodeStart"): void {
    const typed = value.trim();
    if (characterCount(typed) < usernameOrEmailMinLength) {
      mistake("shortEmailOrUsername");
      return;
    }
    onEmailOrUsername(typed);
    void run(method, () => postStep(method, flowId, { emailOrUsername: typed }));
  }

  return (
    <StepForm
      heading={t("authFlow.start.heading")}
      onSubmit={() => start("AuthFlowPasswordStart")}
      emailOrUsername={value}
      failure={failure}
      field={{
        ref: input,
        label: t("authFlow.start.label"),
        hint: t("authFlow.start.hint"),
        name: "username",
        autoComplete: "username",
        autoCapitalize: "none",
        spellCheck: false,
        value,
        onChange: (event) => setValue(event.target.value),
      }}
      submitLabel={t("authFlow.start.next")}
      submitting={pending === "AuthFlowPasswordStart"}
      alternatives={
        // Passkeys and third-party providers get their buttons here too.
        <Button
          variant="secondary"
          size="large"
          busy={pending === "AuthFlowCodeStart"}
          onClick={() => start("AuthFlowCodeStart")}
        >
          <MailIcon />
          {t("authFlow.start.sendCode")}
        </Button>
      }
    />
  );
}
