import { use, useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { useLocation, useNavigate } from "react-router";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { codeLength } from "../../../common/limits.ts";
import { useBuiltInNames } from "../../builtInNames.ts";
import { Alert } from "../../components/Alert.tsx";
import { finishFlow, postStep } from "./flowApi.ts";
import { FlowHeader } from "./FlowHeader.tsx";
import type { PasskeyPhase } from "./PasskeyStep.tsx";
import { StartStep } from "./StartStep.tsx";
import { Stepper, type StepperItem } from "./Stepper.tsx";
import { firstFactors, isBuiltInProvider, stepFor, usedSecondFactor, type Step } from "./steps.ts";
import { fulfilledValue, settling } from "../../settled.ts";
import { failureMessage, useStepAction, type OnFlow } from "./useStepAction.ts";

let laterSteps: Promise<typeof import("./laterSteps.ts")> | undefined;

/** The steps after the first: loaded once, and again after a failed load. */
function loadLaterSteps() {
  laterSteps ??= settling(
    import("./laterSteps.ts").catch((error: unknown) => {
      laterSteps = undefined;
      throw error;
    }),
  );
  return laterSteps;
}

/**
 * Runs `show` once the step it leads to, `next`, can be drawn: at once, or when the later steps have
 * loaded. Until then the page keeps the step it has (and that step's button stays busy); when they
 * cannot load, it stays and says so through `setFailed`, and the next try loads them again.
 */
async function whenDrawable(
  next: Step | "finish",
  setFailed: (failed: boolean) => void,
  show: () => void,
): Promise<void> {
  if (next !== "start" && next !== "finish" && fulfilledValue(laterSteps) === undefined) {
    try {
      await loadLaterSteps();
    } catch {
      setFailed(true);
      return;
    }
  }
  setFailed(false);
  show();
}

const codeInLink = new RegExp(`^#code=(\\d{${codeLength}})$`);

interface FlowPageProps {
  readonly flowId: string;
  readonly initial: FlowResponse;
}

/** The flow's steps, from the state the page loaded with to the redirect back to the app. */
export function FlowPage({ flowId, initial }: FlowPageProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [codeFromLink, setCodeFromLink] = useState(() => codeInLink.exec(location.hash)?.[1] ?? null);
  const [flow, setFlow] = useState(initial);
  const [step, setStepNow] = useState<Step | "finish">(() => stepFor(initial, codeFromLink !== null));
  const later = step === "start" || step === "finish" ? undefined : use(loadLaterSteps());
  const [laterStepsFailed, setLaterStepsFailed] = useState(false);
  const [emailOrUsername, setEmailOrUsername] = useState(initial.emailOrUsername ?? "");
  const [passkeyPhase, setPasskeyPhase] = useState<PasskeyPhase>({ kind: "waiting", attempt: "signIn" });
  const [chosenProvider, setChosenProvider] = useState<{ key: string; name: string } | null>(null);
  const restart = useStepAction(apply);
  const names = useBuiltInNames();

  // The steps name the app and its organization as the header does: the built-in ones in the page's
  // language ("Konzola"), so every sentence agrees with the name it holds.
  const shown: FlowResponse = {
    ...flow,
    appName: names.application(flow.appId, flow.appName),
    organizationName: names.organization(flow.organizationId, flow.organizationName),
  };
  // A pending second factor comes after the first: the flow is past its first auth step then.
  const beforeAuth = flow.completed.length === 0 && flow.secondFactor === undefined;
  const ended = step === "finish" || step === "manual";

  // The first step shows without the later ones, which load once the person starts on it.
  useEffect(() => {
    const load = () => void loadLaterSteps();
    const events = ["pointerdown", "keydown"] as const;
    for (const event of events) window.addEventListener(event, load, { once: true });
    return () => {
      for (const event of events) window.removeEventListener(event, load);
    };
  }, []);

  // The code must not stay in the address (history, screenshots, shared links).
  useEffect(() => {
    if (codeFromLink !== null) void navigate(location.pathname + location.search, { replace: true });
  }, [codeFromLink, navigate, location.pathname, location.search]);

  // The e-mail's link opened in this very tab only changes the address's fragment and the page stays:
  // the code is picked up from that change too.
  useEffect(() => {
    const pickUp = () => {
      const code = codeInLink.exec(window.location.hash)?.[1];
      if (code === undefined) return;
      setCodeFromLink(code);
      if (beforeAuth) void whenDrawable("code", setLaterStepsFailed, () => setStepNow("code"));
    };
    window.addEventListener("hashchange", pickUp);
    return () => window.removeEventListener("hashchange", pickUp);
  }, [beforeAuth]);

  const setStep = (next: Step | "finish") =>
    void whenDrawable(next, setLaterStepsFailed, () => setStepNow(next));

  function finish(): void {
    if (!finishFlow(flowId)) setStep("manual");
  }

  function apply(next: FlowResponse): Promise<void> {
    const nextStep = stepFor(next);
    return whenDrawable(nextStep, setLaterStepsFailed, () => {
      setFlow(next);
      if (next.emailOrUsername) setEmailOrUsername(next.emailOrUsername);
      if (nextStep === "finish") finish();
      else setStepNow(nextStep);
    });
  }

  const restartAuth = () => void restart.run("restart", () => postStep("AuthFlowRestartAuth", flowId, {}));
  const allProviders = flow.providers ?? [];
  const providers = firstFactors(allProviders);
  const usedPassword = providers.includes("password") || step === "password";
  // The start step asks for passkeys by itself (autofill): before the auth step that says nothing.
  const usedPasskey = step === "passkey" || (!beforeAuth && providers.includes("passkey"));
  const usedProvider =
    step === "thirdPartyProvider" || (!beforeAuth && providers.some((key) => !isBuiltInProvider(key)));
  const startItem: StepperItem = {
    step: "start",
    onSelect:
      step === "password" || step === "code" || step === "passkey" || step === "thirdPartyProvider"
        ? () => setStep("start")
        : step === "identity" || step === "secondFactor"
          ? restartAuth
          : undefined,
  };
  const stepperItems: StepperItem[] = [
    // A person signed in already did not start here: the identity step offers another account instead.
    ...(flow.singleSignOn ? [] : [startItem]),
    ...(usedPassword
      ? [
          {
            step: "password" as const,
            onSelect: step === "code" && beforeAuth ? () => setStep("password") : undefined,
          },
        ]
      : []),
    ...(providers.includes("code") || step === "code" ? [{ step: "code" as const }] : []),
    ...(usedPasskey ? [{ step: "passkey" as const }] : []),
    ...(usedProvider ? [{ step: "thirdPartyProvider" as const }] : []),
    ...(step === "secondFactor" || step === "recoveryCodes" || usedSecondFactor(allProviders)
      ? [{ step: "secondFactor" as const }]
      : []),
    // The account page is the person's own: no identity is chosen for it.
    ...(flow.accountPage
      ? []
      : [
          {
            step: "identity" as const,
            onSelect: step === "redirect" ? () => setStep("identity") : undefined,
          },
          { step: "redirect" as const },
        ]),
  ];

  return (
    <div className="flex flex-col gap-6">
      <FlowHeader
        appName={shown.appName}
        organizationName={shown.organizationName}
        ended={ended}
        signedIn={flow.singleSignOn === true}
      />
      {!ended && <Stepper items={stepperItems} current={step} />}
      {restart.failure !== null && <Alert message={failureMessage(t, restart.failure)} />}
      {laterStepsFailed && <Alert message={t("errors.unexpected")} />}
      {step === "finish" && <FinishOnLoad flowId={flowId} onBlocked={() => setStep("manual")} />}
      {step === "start" && (
        <StartStep
          flowId={flowId}
          emailOrUsername={emailOrUsername}
          onEmailOrUsername={setEmailOrUsername}
          onFlow={apply}
          onPasskey={(phase) => {
            setPasskeyPhase(phase);
            setStep("passkey");
          }}
          onProvider={(provider) => {
            setChosenProvider(provider);
            setStep("thirdPartyProvider");
          }}
        />
      )}
      {later && step === "thirdPartyProvider" && chosenProvider && (
        <later.ProviderStep
          flowId={flowId}
          provider={chosenProvider}
          onFlow={apply}
          onBack={() => setStep("start")}
        />
      )}
      {later && step === "passkey" && (
        <later.PasskeyStep
          flowId={flowId}
          initial={passkeyPhase}
          onFlow={apply}
          onOtherMethod={() => setStep("start")}
        />
      )}
      {later && step === "password" && (
        <later.PasswordStep
          flowId={flowId}
          emailOrUsername={emailOrUsername}
          onFlow={apply}
          onBack={() => setStep("start")}
        />
      )}
      {later && step === "code" && (
        <later.CodeStep
          // A new code from a link starts the step afresh, filled in.
          key={codeFromLink ?? ""}
          flowId={flowId}
          flow={shown}
          emailOrUsername={emailOrUsername}
          codeFromLink={codeFromLink}
          onFlow={apply}
          onOtherMethod={() => setStep("start")}
          onBack={usedPassword ? () => setStep("password") : null}
        />
      )}
      {later && step === "secondFactor" && flow.secondFactor && (
        <later.SecondFactorStep
          flowId={flowId}
          flow={shown}
          pending={flow.secondFactor}
          onFlow={apply}
          onRestart={restartAuth}
          restarting={restart.busy}
        />
      )}
      {later && step === "recoveryCodes" && flow.recoveryCodes && (
        <later.RecoveryCodesStep
          codes={flow.recoveryCodes}
          onContinue={() => setStep(flow.accountPage ? "account" : "identity")}
        />
      )}
      {step === "account" && <ToAccountOnLoad flowId={flowId} onFlow={apply} />}
      {later && step === "keepAccount" && flow.deletionDueAt && (
        <later.KeepAccountStep flowId={flowId} dueAt={flow.deletionDueAt} onFlow={apply} />
      )}
      {later && step === "identity" && (
        <later.IdentityStep
          flowId={flowId}
          flow={shown}
          onFlow={apply}
          onRestart={restartAuth}
          restarting={restart.busy}
        />
      )}
      {later && step === "redirect" && (
        <later.RedirectStep
          // Declining during the countdown starts a new one, for the new message.
          key={flow.completed.at(-1)}
          flowId={flowId}
          flow={shown}
          onFlow={apply}
          onBack={() => setStep("identity")}
        />
      )}
      {later && step === "manual" && <later.ManualRedirectStep flowId={flowId} flow={shown} onFlow={apply} />}
    </div>
  );
}

/** The flow was ready to finish when the page loaded: the server sends the browser back on reload. */
function FinishOnLoad({ flowId, onBlocked }: { readonly flowId: string; readonly onBlocked: () => void }) {
  const { t } = useTranslation();
  // Development's strict mode runs effects twice; the page must reload only once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!finishFlow(flowId)) onBlocked();
  }, [flowId, onBlocked]);
  return (
    <p role="status" className="text-center">
      {t("authFlow.redirect.redirecting")}
    </p>
  );
}

/** Signed in to the account page, which asks for no identity: the flow goes back to it at once. */
function ToAccountOnLoad({ flowId, onFlow }: { readonly flowId: string; readonly onFlow: OnFlow }) {
  const { t } = useTranslation();
  const { failure, run } = useStepAction(onFlow);
  // Development's strict mode runs effects twice; the step must be posted only once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run("redirect", () => postStep("AuthFlowRedirect", flowId, {}));
  }, [flowId, run]);
  return failure === null ? (
    <p role="status" className="text-center">
      {t("authFlow.redirect.toAccount")}
    </p>
  ) : (
    <Alert message={failureMessage(t, failure)} />
  );
}
