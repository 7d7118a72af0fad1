import { useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { usernameOrEmailMinLength } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { MailIcon, PasskeyIcon, ProviderIcon } from "../../components/icons.tsx";
import { useProviders } from "../../providers.ts";
import { postStep } from "./flowApi.ts";
import type { PasskeyPhase } from "./PasskeyStep.tsx";
import { StepForm } from "./StepForm.tsx";
import { characterCount } from "./steps.ts";
import { usePasskeyAutofill } from "./usePasskeyAutofill.ts";
import { useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

interface StartStepProps {
  readonly flowId: string;
  readonly emailOrUsername: string;
  readonly onEmailOrUsername: (value: string) => void;
  readonly onFlow: OnFlow;
  /** Opens the passkey step: to sign in, or at the failure of a sign-in picked from autofill. */
  readonly onPasskey: (phase: PasskeyPhase) => void;
  /** Opens the third-party provider step for the chosen provider. */
  readonly onProvider: (provider: { key: string; name: string }) => void;
}

export function StartStep({
  flowId,
  emailOrUsername,
  onEmailOrUsername,
  onFlow,
  onPasskey,
  onProvider,
}: StartStepProps) {
  const { t } = useTranslation();
  const providers = useProviders();
  const [value, setValue] = useState(emailOrUsername);
  const input = useRef<HTMLInputElement>(null);
  const { pending, failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(input);
  const checkingPasskey = usePasskeyAutofill(flowId, onFlow, onPasskey);

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
        // "webauthn" lets the browser offer this site's passkeys in the field's autofill list.
        autoComplete: "username webauthn",
        autoCapitalize: "none",
        spellCheck: false,
        value,
        onChange: (event) => setValue(event.target.value),
      }}
      submitLabel={t("authFlow.start.next")}
      submitting={pending === "AuthFlowPasswordStart"}
      alternatives={
        <>
          {browserSupportsWebAuthn() && (
            <Button
              variant="secondary"
              size="large"
              busy={checkingPasskey}
              onClick={() => onPasskey({ kind: "waiting", attempt: "signIn" })}
            >
              <PasskeyIcon />
              {t("authFlow.start.passkey")}
            </Button>
          )}
          {providers.map((provider) => (
            <Button key={provider.key} variant="secondary" size="large" onClick={() => onProvider(provider)}>
              <ProviderIcon />
              {t("authFlow.start.provider", { provider: provider.name })}
            </Button>
          ))}
          <Button
            variant="secondary"
            size="large"
            busy={pending === "AuthFlowCodeStart"}
            onClick={() => start("AuthFlowCodeStart")}
          >
            <MailIcon />
            {t("authFlow.start.sendCode")}
          </Button>
        </>
      }
    />
  );
}
