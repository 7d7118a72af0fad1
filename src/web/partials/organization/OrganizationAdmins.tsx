import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../i18n/index.ts";
import { displayName } from "../../../common/api/identity.ts";
import type { Organization } from "../../../common/api/organization.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { Labels } from "../../components/Labels.tsx";
import { Section } from "../../components/Section.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { useCurrentIdentity, useKnownIdentity } from "../../currentIdentity.ts";
import { PersonSummary } from "../identity/Person.tsx";
import { updateOf, updateOrganization } from "./organizationApi.ts";
import { useConfirmation } from "./useConfirmation.tsx";

/**
 * The organization's admins, for its admins: by name where the signed-in person knows the identity,
 * else by ID. An admin can be removed here; a new one is invited, because becoming an admin needs the
 * identity's consent. The signed-in identity always stays one.
 */
export function OrganizationAdmins({ organization }: { readonly organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useCurrentIdentity()?.id;
  const known = useKnownIdentity();
  const action = useAction();
  const confirmation = useConfirmation();
  const admins = organization.admins ?? [];

  const remove = (admin: string, name: string) =>
    action.run(
      async () => {
        await updateOrganization(queryClient, organization.id, {
          ...updateOf(organization),
          admins: admins.filter((candidate) => candidate !== admin),
        });
      },
      t("organizations.admins.removed", { name }),
      admin,
    );

  return (
    <Section title={t("organizations.admins.title")}>
      <p className="text-sm text-slate-700 dark:text-slate-300">{t("organizations.admins.hint")}</p>
      <CardList>
        {admins.map((admin) => {
          const identity = known(admin);
          const name = identity ? displayName(identity) : admin;
          return (
            <CardItem
              key={admin}
              actions={
                admin !== current && (
                  <Button
                    variant="secondary"
                    {...action.button(admin)}
                    aria-label={t("organizations.admins.removeLabel", { name })}
                    onClick={() =>
                      confirmation.ask({
                        title: t("organizations.admins.removeConfirm.title", { name }),
                        message: t("organizations.admins.removeConfirm.message"),
                        confirmLabel: t("organizations.admins.removeConfirm.confirm"),
                        destructive: true,
                        onConfirm: () => void remove(admin, name),
                      })
                    }
                  >
                    {t("common.remove")}
                  </Button>
                )
              }
            >
              <PersonSummary
                id={admin}
                identity={identity}
                labels={admin === current && <Labels labels={[t("organizations.admins.current")]} />}
              />
            </CardItem>
          );
        })}
      </CardList>
      <ActionFeedback action={action} />
      {confirmation.dialog}
    </Section>
  );
}
