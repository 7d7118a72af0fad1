import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { usernameOrEmailMinLength } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import { postStep } from "./flowApi.ts";
import { StepHeading } from "./StepHeading.tsx";
import { characterCount, mistakeMessage } from "./steps.ts";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface StartStepProps {
  readonly flowId: string;
  readonly emailOrUsername: string;
  readonly onEmailOrUsername: (value: string) => void;
  readonly onFlow: (flow: FlowResponse) => void;
}

export function StartStep({ flowId, emailOrUsername, onEmailOrUsername, onFlow }: StartStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [value, setValue] = useState(emailOrUsername);
  const input = useRef<HTMLInputElement>(null);
  const { failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(input);

  function start(method: "AuthFlowPasswordStart" | "AuthFlowCodeStart"): void {
    const typed = value.trim();
    if (characterCount(typed) < usernameOrEmailMinLength) {
      mistake("shortEmailOrUsername");
      return;
    }
    onEmailOrUsername(typed);
    void run(() => postStep(method, flowId, { emailOrUsername: typed }));
  }

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        start("AuthFlowPasswordStart");
      }}
      className="flex flex-col gap-5"
    >
      <StepHeading id={headingId}>{t("authFlow.start.heading")}</StepHeading>
      <TextField
        ref={input}
        label={t("authFlow.start.label")}
        hint={t("authFlow.start.hint")}
        error={failure?.kind === "mistake" ? mistakeMessage(t, failure.mistake, value) : null}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      {failure?.kind === "other" && <Alert message={t("errors.unexpected")} />}
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{t("authFlow.start.next")}</Button>
        <Button variant="secondary" onClick={() => start("AuthFlowCodeStart")}>
          {t("authFlow.start.sendCode")}
        </Button>
        {/* Passkeys and third-party providers get their buttons here. */}
      </div>
    </form>
  );
}
