import { useRef, useState, type ReactNode } from "react";
import type { FlowResponse } from "../../../common/api/flow.ts";
import type { PendingSecondFactor } from "../../../common/api/second-factor.ts";
import { recoveryCodeLength } from "../../../common/limits.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { PasskeyIcon } from "../../components/icons.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { postStep } from "./flowApi.ts";
import { passkeyFailureMessage } from "./PasskeyStep.tsx";
import { secondFactorReason, totpCodeOf, totpFieldLook } from "./secondFactor.ts";
import { StepForm } from "./StepForm.tsx";
import { FactorSection } from "./FactorSection.tsx";
import { usePasskeyFactor } from "./usePasskeyFactor.ts";
import { useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

/** A second factor typed in: a code of the authenticator app, or one of the recovery codes. */
type TypedFactor = "totp" | "recoveryCode";

interface ProveSecondFactorProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly pending: PendingSecondFactor;
  readonly onFlow: OnFlow;
}

/**
 * Proving a second factor the account has: the authenticator app's code first when it has one, else
 * its passkey; a recovery code replaces either for a person who lost them.
 */
export function ProveSecondFactor({ flowId, flow, pending, onFlow }: ProveSecondFactorProps) {
  const { t } = useTranslation();
  const { methods } = pending;
  const hasPasskey = methods.includes("passkey");
  const [typed, setTyped] = useState<TypedFactor | null>(
    methods.includes("totp") ? "totp" : hasPasskey ? null : "recoveryCode",
  );
  const passkey = usePasskeyFactor(flowId, onFlow);

  const reason = <p>{secondFactorReason(t, pending, flow)}</p>;
  const passkeyAction = hasPasskey && (
    <>
      <Button
        variant={typed === null ? "primary" : "secondary"}
        size="large"
        className="w-full"
        busy={passkey.busy}
        onClick={passkey.prove}
      >
        <PasskeyIcon />
        {t("authFlow.secondFactor.usePasskey")}
      </Button>
      {passkey.failure !== null && <Alert message={passkeyFailureMessage(t, passkey.failure)} />}
    </>
  );
  // Another typed factor the account has: switching keeps the page, with the other field.
  const other: TypedFactor | null =
    typed !== "recoveryCode" && methods.includes("recoveryCode")
      ? "recoveryCode"
      : typed === "recoveryCode" && methods.includes("totp")
        ? "totp"
        : null;
  const switchLink = other && (
    <Button variant="link" className="self-center text-sm" onClick={() => setTyped(other)}>
      {other === "recoveryCode"
        ? t("authFlow.secondFactor.useRecoveryCode")
        : t("authFlow.secondFactor.useTotp")}
    </Button>
  );

  if (typed === null) {
    return (
      // The account's passkey, started by the person: the browser asks only then.
      <FactorSection
        heading={t("authFlow.secondFactor.heading")}
        intro={
          <>
            {reason}
            <p className="text-slate-700 dark:text-slate-300">{t("authFlow.secondFactor.passkeyIntro")}</p>
          </>
        }
      >
        {passkeyAction}
        {switchLink}
      </FactorSection>
    );
  }
  return (
    <TypedFactorForm
      // Each kind starts with its own empty field.
      key={typed}
      kind={typed}
      flowId={flowId}
      intro={reason}
      onFlow={onFlow}
      alternatives={
        (passkeyAction || switchLink) && (
          <>
            {passkeyAction}
            {switchLink}
          </>
        )
      }
    />
  );
}

interface TypedFactorFormProps {
  readonly kind: TypedFactor;
  readonly flowId: string;
  readonly intro: ReactNode;
  readonly onFlow: OnFlow;
  readonly alternatives: ReactNode;
}

function TypedFactorForm({ kind, flowId, intro, onFlow, alternatives }: TypedFactorFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const { pending, failure, mistake, run } = useStepAction(onFlow, input);
  useFocusOnMount(input);

  function submit(): void {
    if (kind === "recoveryCode") {
      if (code.trim() === "") mistake("invalidRecoveryCode");
      else void run("submit", () => postStep("AuthFlowRecoveryCodeComplete", flowId, { code: code.trim() }));
      return;
    }
    const digits = totpCodeOf(code);
    if (digits === null) mistake("codeFormat");
    else void run("submit", () => postStep("AuthFlowTotpComplete", flowId, { code: digits }));
  }

  const totp = kind === "totp";
  return (
    <StepForm
      heading={t("authFlow.secondFactor.heading")}
      onSubmit={submit}
      emailOrUsername=""
      failure={failure}
      intro={
        <div className="flex flex-col gap-2">
          {intro}
          <p className="text-slate-700 dark:text-slate-300">
            {totp ? t("authFlow.secondFactor.totpIntro") : t("authFlow.secondFactor.recoveryCodeIntro")}
          </p>
        </div>
      }
      field={
        totp
          ? {
              ref: input,
              label: t("authFlow.secondFactor.totpLabel"),
              ...totpFieldLook,
              value: code,
              onChange: (event) => setCode(event.target.value),
            }
          : {
              ref: input,
              label: t("authFlow.secondFactor.recoveryCodeLabel"),
              name: "recoveryCode",
              autoComplete: "off",
              autoCapitalize: "none",
              spellCheck: false,
              maxLength: recoveryCodeLength * 2,
              className: "text-center font-mono text-xl tracking-widest",
              value: code,
              onChange: (event) => setCode(event.target.value),
            }
      }
      submitLabel={t("authFlow.secondFactor.verify")}
      submitting={pending === "submit"}
      alternatives={alternatives || undefined}
    />
  );
}
