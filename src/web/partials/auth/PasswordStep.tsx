import { useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { passwordMinLength } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { MailIcon } from "../../components/icons.tsx";
import { postStep } from "./flowApi.ts";
import { IdentifierChip } from "./IdentifierChip.tsx";
import { StepForm } from "./StepForm.tsx";
import { characterCount } from "./steps.ts";
import { useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

interface PasswordStepProps {
  readonly flowId: string;
  readonly emailOrUsername: string;
  readonly onFlow: OnFlow;
  readonly onBack: () => void;
}

export function PasswordStep({ flowId, emailOrUsername, onFlow, onBack }: PasswordStepProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const { pending, failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(input);

  function submit(): void {
    if (characterCount(password) < passwordMinLength) {
      mistake("shortPassword");
      return;
    }
    void run("submit", () => postStep("AuthFlowPasswordComplete", flowId, { password }));
  }

  return (
    <StepForm
      heading={t("authFlow.password.heading")}
      onSubmit={submit}
      emailOrUsername={emailOrUsername}
      failure={failure}
      intro={
        <>
          <IdentifierChip emailOrUsername={emailOrUsername} onChange={onBack} />
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
      submitLabel={t("authFlow.password.submit")}
      submitting={pending === "submit"}
      alternatives={
        <Button
          variant="secondary"
          size="large"
          busy={pending === "sendCode"}
          onClick={() =>
            void run("sendCode", () => postStep("AuthFlowCodeStart", flowId, { emailOrUsername }))
          }
        >
          <MailIcon />
          {t("authFlow.password.sendCode")}
        </Button>
      }
      footer={
        <Button variant="link" onClick={onBack}>
          {t("authFlow.password.back")}
        </Button>
      }
    />
  );
}
