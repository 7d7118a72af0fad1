import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Trans, useTranslation } from "react-i18next";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { IdentityForm } from "../identity/IdentityForm.tsx";
import { createIdentity, flowIdentitiesQuery, postStep } from "./flowApi.ts";
import { IdentityGroups } from "./IdentityGroups.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { useFocusOnMount, useStepAction } from "./useStepAction.ts";

interface IdentityStepProps {
  readonly flowId: string;
  readonly flow: FlowResponse;
  readonly onFlow: (flow: FlowResponse) => void;
  /** Back to the start: the server forgets the sign-in, so the person signs in again. */
  readonly onRestart: () => void;
}

export function IdentityStep({ flowId, flow, onFlow, onRestart }: IdentityStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const formHeadingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  const queryClient = useQueryClient();
  const identities = useQuery(flowIdentitiesQuery(flowId));
  const { failure, run } = useStepAction(onFlow);
  const [creating, setCreating] = useState(false);
  const [createdId, setCreatedId] = useState<string | null>(null);
  useFocusOnMount(heading);

  async function created(id: string): Promise<void> {
    await queryClient.invalidateQueries({ queryKey: flowIdentitiesQuery(flowId).queryKey });
    setCreating(false);
    setCreatedId(id);
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <p className="font-medium text-green-800">
        {flow.completed.includes("signup")
          ? t("authFlow.identity.signedUp")
          : t("authFlow.identity.signedIn")}
      </p>
      <StepHeading id={headingId} ref={heading}>
        {t("authFlow.identity.heading")}
      </StepHeading>
      <p>
        <Trans
          i18nKey="authFlow.identity.intro"
          values={{ appName: flow.appName, organizationName: flow.organizationName }}
          components={{ strong: <strong /> }}
        />
      </p>
      {identities.isPending ? (
        <p role="status">{t("app.loading")}</p>
      ) : identities.isError ? (
        <Alert message={t("errors.loadingDataFailed")} />
      ) : (
        <IdentityGroups
          identities={identities.data}
          focusId={createdId}
          onSelect={(identity) =>
            void run(() => postStep("AuthFlowChooseIdentity", flowId, { identity: { id: identity.id } }))
          }
        />
      )}
      <p role="status" className="text-sm text-slate-700">
        {createdId !== null ? t("identities.form.created") : ""}
      </p>
      {creating ? (
        <div className="flex flex-col gap-4 rounded-md border border-slate-300 p-4">
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
        <div>
          <Button ref={createButton} variant="secondary" onClick={() => setCreating(true)}>
            {t("authFlow.identity.create")}
          </Button>
        </div>
      )}
      {failure?.kind === "other" && <Alert message={errorMessage(t, failure.code)} />}
      <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-5">
        <Button variant="secondary" onClick={() => void run(() => postStep("AuthFlowDecline", flowId, {}))}>
          {t("authFlow.identity.decline")}
        </Button>
        <Button variant="secondary" onClick={onRestart}>
          {t("authFlow.identity.back")}
        </Button>
      </div>
    </section>
  );
}
