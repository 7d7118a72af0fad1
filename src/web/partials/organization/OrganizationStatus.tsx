import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../i18n/index.ts";
import type { Organization } from "../../../common/api/organization.ts";
import { Button } from "../../components/Button.tsx";
import { Labels } from "../../components/Labels.tsx";
import { Section } from "../../components/Section.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { updateOf, updateOrganization } from "./organizationApi.ts";
import { useConfirmation } from "./useConfirmation.tsx";

/**
 * The organization's own status, for its admins: disabling it stops sign-in to all of its apps and
 * the tokens they hold, so it is asked about first; activating it is not.
 */
export function OrganizationStatus({
  organization,
  name,
}: {
  readonly organization: Organization;
  /** As the reader sees it. */
  readonly name: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useAction();
  const confirmation = useConfirmation();
  const { active } = organization;
  const save = () =>
    void action.run(async () => {
      await updateOrganization(queryClient, organization.id, { ...updateOf(organization), active: !active });
    }, t("organizations.status.updated"));
  return (
    <Section title={t("organizations.status.title")}>
      <p className="text-slate-800 dark:text-slate-200">
        <Labels labels={[active ? t("common.labels.active") : t("common.labels.disabled")]} />{" "}
        {active ? t("organizations.status.active") : t("organizations.status.disabled")}
      </p>
      <div>
        <Button
          variant={active ? "danger" : "primary"}
          busy={action.busy}
          onClick={() =>
            active
              ? confirmation.ask({
                  title: t("organizations.status.disableConfirm.title", { name }),
                  message: t("organizations.status.disableConfirm.message"),
                  confirmLabel: t("organizations.status.disable"),
                  destructive: true,
                  onConfirm: save,
                })
              : save()
          }
        >
          {active ? t("organizations.status.disable") : t("organizations.status.activate")}
        </Button>
      </div>
      <ActionFeedback action={action} />
      {confirmation.dialog}
    </Section>
  );
}
