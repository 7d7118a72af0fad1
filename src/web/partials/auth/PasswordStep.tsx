import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { passwordMinLength } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import { postStep } from "./flowApi.ts";
import { StepHeading } from "./StepHeading.tsx";
import { characterCount, mistakeMessage } from "./steps.ts";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface PasswordStepProps {
  readonly flowId: string;
  readonly emailOrUsername: string;
  readonly onFlow: (flow: FlowResponse) => void;
  readonly onBack: () => void;
}

export function PasswordStep({ flowId, emailOrUsername, onFlow, onBack }: PasswordStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
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
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="flex flex-col gap-5"
    >
      <StepHeading id={headingId}>{t("authFlow.password.heading")}</StepHeading>
      <p>
        {t("authFlow.password.as")}{" "}
        <Button variant="link" onClick={onBack}>
          {emailOrUsername} {t("authFlow.password.change")}
        </Button>
      </p>
      {/* Lets password managers store the password for this account. */}
      <input type="text" name="username" autoComplete="username" value={emailOrUsername} readOnly hidden />
      <TextField
        ref={input}
        type="password"
        label={t("authFlow.password.label")}
        error={failure?.kind === "mistake" ? mistakeMessage(t, failure.mistake, emailOrUsername) : null}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {failure?.kind === "other" && <Alert message={t("errors.unexpected")} />}
      <div className="flex flex-wrap gap-3">
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
      </div>
    </form>
  );
}
