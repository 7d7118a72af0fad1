import { useRef, useState, type ReactNode } from "react";
import type { FlowResponse } from "../../../common/api/flow.ts";
import type { PendingSecondFactor, TotpSetUp } from "../../../common/api/second-factor.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { AuthenticatorKey } from "../../components/AuthenticatorKey.tsx";
import { AuthenticatorAppIcon, PasskeyIcon } from "../../components/icons.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { postStep } from "./flowApi.ts";
import { passkeyFailureMessage } from "./PasskeyStep.tsx";
import { secondFactorReason, totpCodeOf, totpFieldLook } from "./secondFactor.ts";
import { StepForm } from "./StepForm.tsx";
import { FactorSection } from "./FactorSection.tsx";
import { usePasskeyFactor } from "./usePasskeyFactor.ts";
import { failureMessage, useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

/** A secret as people read and type it: in groups of four. */

interface SecondFactorSetUpProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly pending: PendingSecondFactor;
  readonly onFlow: OnFlow;
}

/**
 * The account has no second factor the sign-in can use: the person sets one up now, an authenticator
 * app (its QR code, then a code it shows) or a new passkey. The server answers the first one with the
 * account's recovery codes.
 */
export function SecondFactorSetUp({ flowId, flow, pending, onFlow }: SecondFactorSetUpProps) {
  const { t } = useTranslation();
  const [totp, setTotp] = useState<TotpSetUp | null>(null);
  const passkey = usePasskeyFactor(flowId, onFlow);
  const start = useStepAction((next) => (next.totpSetUp ? setTotp(next.totpSetUp) : onFlow(next)));
  const kinds = pending.setUp ?? [];
  const reason = <p>{secondFactorReason(t, pending, flow)}</p>;

  if (totp) {
    return <TotpSetUpForm flowId={flowId} setUp={totp} onFlow={onFlow} onBack={() => setTotp(null)} />;
  }
  return (
    <FactorSection
      heading={t("authFlow.secondFactor.setUp.heading")}
      intro={
        <>
          {reason}
          <p className="text-slate-700 dark:text-slate-300">{t("authFlow.secondFactor.setUp.intro")}</p>
        </>
      }
    >
      {kinds.includes("totp") && (
        <SetUpOption
          icon={<AuthenticatorAppIcon className="size-6" />}
          title={t("authFlow.secondFactor.setUp.totp")}
          description={t("authFlow.secondFactor.setUp.totpHint")}
          busy={start.pending === "totp"}
          onChoose={() => void start.run("totp", () => postStep("AuthFlowTotpSetUpStart", flowId, {}))}
        />
      )}
      {kinds.includes("passkey") && (
        <SetUpOption
          icon={<PasskeyIcon className="size-6" />}
          title={t("authFlow.secondFactor.setUp.passkey")}
          description={t("authFlow.secondFactor.setUp.passkeyHint")}
          busy={passkey.busy}
          onChoose={passkey.create}
        />
      )}
      {start.failure !== null && <Alert message={failureMessage(t, start.failure)} />}
      {passkey.failure !== null && <Alert message={passkeyFailureMessage(t, passkey.failure)} />}
    </FactorSection>
  );
}

interface SetUpOptionProps {
  readonly icon: ReactNode;
  readonly title: string;
  readonly description: string;
  readonly busy: boolean;
  readonly onChoose: () => void;
}

/** One kind of second factor to set up: a large button that names it and says what it is. */
function SetUpOption({ icon, title, description, busy, onChoose }: SetUpOptionProps) {
  return (
    <Button
      variant="secondary"
      size="large"
      busy={busy}
      onClick={onChoose}
      className="w-full justify-start! gap-4! text-start"
    >
      <span className="grid size-11 shrink-0 place-items-center rounded-full bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200">
        {icon}
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="font-semibold">{title}</span>
        <span className="text-sm font-normal text-slate-700 dark:text-slate-300">{description}</span>
      </span>
    </Button>
  );
}

interface TotpSetUpFormProps {
  readonly flowId: string;
  readonly setUp: TotpSetUp;
  readonly onFlow: OnFlow;
  /** Back to choosing what to set up. */
  readonly onBack: () => void;
}

/** The authenticator app to add (its QR code, or its key typed), confirmed by a code it shows. */
function TotpSetUpForm({ flowId, setUp, onFlow, onBack }: TotpSetUpFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { pending, failure, mistake, run } = useStepAction(onFlow, input);
  // The QR code comes first: the person starts reading at the heading, not at the field below it.
  useFocusOnMount(heading);

  function submit(): void {
    const digits = totpCodeOf(code);
    if (digits === null) mistake("codeFormat");
    else
      void run("submit", () =>
        postStep("AuthFlowTotpSetUpComplete", flowId, { setUpToken: setUp.setUpToken, code: digits }),
      );
  }

  return (
    <StepForm
      heading={t("authFlow.secondFactor.totpSetUp.heading")}
      headingRef={heading}
      onSubmit={submit}
      emailOrUsername=""
      failure={failure}
      intro={
        <ol className="flex flex-col gap-4">
          <li className="flex flex-col gap-3">
            <p>{t("authFlow.secondFactor.totpSetUp.scan")}</p>
            <img
              src={setUp.qrCode}
              alt={t("authFlow.secondFactor.totpSetUp.qrAlt")}
              width={176}
              height={176}
              className="size-44 self-center rounded-lg border border-slate-200 bg-white p-2 dark:border-slate-600"
            />
          </li>
          <li className="flex flex-col gap-2">
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t("authFlow.secondFactor.totpSetUp.manual")}
            </p>
            <AuthenticatorKey
              secret={setUp.secret}
              label={t("authFlow.secondFactor.totpSetUp.key")}
              copyLabel={t("authFlow.secondFactor.totpSetUp.copyKey")}
            />
          </li>
          <li>
            <p>{t("authFlow.secondFactor.totpSetUp.confirm")}</p>
          </li>
        </ol>
      }
      field={{
        ref: input,
        label: t("authFlow.secondFactor.totpSetUp.label"),
        ...totpFieldLook,
        value: code,
        onChange: (event) => setCode(event.target.value),
      }}
      submitLabel={t("authFlow.secondFactor.totpSetUp.submit")}
      submitting={pending === "submit"}
      alternatives={
        <Button variant="link" className="self-center text-sm" onClick={onBack}>
          {t("authFlow.secondFactor.totpSetUp.back")}
        </Button>
      }
    />
  );
}
