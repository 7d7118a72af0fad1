import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "../../i18n/index.ts";
import { Trans } from "../../i18n/Trans.tsx";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { CheckIcon, PlusIcon } from "../../components/icons.tsx";
import { IdentityForm } from "../identity/IdentityForm.tsx";
import { createIdentity, flowIdentitiesQuery, postStep } from "./flowApi.ts";
import { IdentityGroups } from "./IdentityGroups.tsx";
import { RequestedAccess } from "./RequestedAccess.tsx";
import { StepFooter } from "./StepForm.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { useFocusOnMount, useStepAction, type OnFlow } from "./useStepAction.ts";

interface IdentityStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly onFlow: OnFlow;
  /** Back to the start: the server forgets the sign-in, so the person signs in again. */
  readonly onRestart: () => void;
  readonly restarting: boolean;
}

export function IdentityStep({ flowId, flow, onFlow, onRestart, restarting }: IdentityStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const formHeadingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  const queryClient = useQueryClient();
  const identities = useQuery(flowIdentitiesQuery(flowId));
  const { pending, failure, run } = useStepAction(onFlow);
  const [creating, setCreating] = useState(false);
  const [createdId, setCreatedId] = useState<string | null>(null);
  // Blocked as an account, the person has no identity to use here, a new one included.
  const accountBlocked = identities.data?.some((identity) => identity.accountBlocked) === true;
  useFocusOnMount(heading);

  async function created(id: string): Promise<void> {
    await queryClient.invalidateQueries({ queryKey: flowIdentitiesQuery(flowId).queryKey });
    setCreating(false);
    setCreatedId(id);
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <p className="inline-flex items-center gap-2 self-start rounded-full bg-green-50 py-1 ps-2 pe-3 text-sm font-medium text-green-800 dark:bg-green-950 dark:text-green-200">
        <CheckIcon />
        {flow.completed.includes("signup")
          ? t("authFlow.identity.signedUp")
          : flow.singleSignOn
            ? t("authFlow.identity.signedInAlready")
            : t("authFlow.identity.signedIn")}
      </p>
      <div className="flex flex-col gap-2">
        <StepHeading id={headingId} ref={heading}>
          {t("authFlow.identity.heading")}
        </StepHeading>
        <p className="text-slate-700 dark:text-slate-300">
          <Trans
            i18nKey="authFlow.identity.intro"
            values={{ appName: flow.appName, organizationName: flow.organizationName }}
            components={{ strong: <strong className="text-slate-900 dark:text-white" /> }}
          />
        </p>
      </div>
      <RequestedAccess
        appName={flow.appName}
        personalData={flow.personalData ?? []}
        scopes={flow.appScopes ?? []}
      />
      {identities.isPending ? (
        <p role="status">{t("app.loading")}</p>
      ) : identities.isError ? (
        <Alert message={t("errors.loadingDataFailed")} />
      ) : (
        <IdentityGroups
          identities={identities.data}
          focusId={createdId}
          selecting={pending}
          onSelect={(identity) =>
            void run(identity.id, () =>
              postStep("AuthFlowChooseIdentity", flowId, { identity: { id: identity.id } }),
            )
          }
        />
      )}
      {/* Out of the layout while empty; a live region must exist before its message. */}
      <p role="status" className="text-sm text-slate-700 empty:sr-only dark:text-slate-300">
        {createdId !== null ? t("identities.form.created") : ""}
      </p>
      {accountBlocked ? (
        <p className="rounded-md bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
          {t("authFlow.identity.accountBlocked")}
        </p>
      ) : creating ? (
        <div className="flex flex-col gap-4 rounded-md border border-slate-300 p-4 dark:border-slate-600">
          <h3 id={formHeadingId} className="font-semibold">
            {t("authFlow.identity.newHeading")}
          </h3>
          <IdentityForm
            labelledBy={formHeadingId}
            submitLabel={t("identities.form.create")}
            autoFocus
            onSubmit={async (fields) => {
              await created(await createIdentity(flowId, fields));
            }}
            onCancel={() => {
              flushSync(() => setCreating(false));
              createButton.current?.focus();
            }}
          />
        </div>
      ) : (
        <Button
          ref={createButton}
          variant="secondary"
          size="large"
          className="border-dashed"
          onClick={() => setCreating(true)}
        >
          <PlusIcon />
          {t("authFlow.identity.create")}
        </Button>
      )}
      {failure?.kind === "other" && <Alert message={errorMessage(t, failure.code)} />}
      <StepFooter>
        <Button variant="link" busy={restarting} onClick={onRestart}>
          {flow.singleSignOn ? t("authFlow.identity.otherAccount") : t("authFlow.identity.back")}
        </Button>
        <Button
          variant="link"
          busy={pending === "decline"}
          onClick={() => void run("decline", () => postStep("AuthFlowDecline", flowId, {}))}
        >
          {t("authFlow.identity.decline")}
        </Button>
      </StepFooter>
    </section>
  );
}
