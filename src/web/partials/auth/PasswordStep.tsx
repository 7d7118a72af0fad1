import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { passwordMinLength } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { postStep } from "./flowApi.ts";
import { StepForm } from "./StepForm.tsx";
import { characterCount } from "./steps.ts";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface PasswordStepProps {
  readonly flowId: string;
  readonly emailOrUsername: string;
  readonly onFlow: (flow: FlowResponse) => void;
  readonly onBack: () => void;
}

export function PasswordStep({ flowId, emailOrUsername, onFlow, onBack }: PasswordStepProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const { failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(input);

  function submit(): void {
    if (characterCount(password) < passwordMinLength) {
      mistake("shortPassword");
      return;
    }
    void run(() => postStep("AuthFlowPasswordComplete", flowId, { password }));
  }

  return (
    <StepForm
      heading={t("authFlow.password.heading")}
      onSubmit={submit}
      emailOrUsername={emailOrUsername}
      failure={failure}
      intro={
        <>
          <p>
            {t("authFlow.password.as")}{" "}
            <Button variant="link" onClick={onBack}>
              {emailOrUsername} {t("authFlow.password.change")}
            </Button>
          </p>
          {/* Lets password managers store the password for this account. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={emailOrUsername}
            readOnly
            hidden
          />
        </>
      }
      field={{
        ref: input,
        type: "password",
        label: t("authFlow.password.label"),
        name: "password",
        autoComplete: "current-password",
        value: password,
        onChange: (event) => setPassword(event.target.value),
      }}
      actions={
        <>
          <Button type="submit">{t("authFlow.password.submit")}</Button>
          <Button
            variant="secondary"
            onClick={() => void run(() => postStep("AuthFlowCodeStart", flowId, { emailOrUsername }))}
          >
            {t("authFlow.password.sendCode")}
          </Button>
          <Button variant="secondary" onClick={onBack}>
            {t("authFlow.password.back")}
          </Button>
        </>
      }
    />
  );
}
