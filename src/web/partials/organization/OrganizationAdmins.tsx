import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Organization } from "../../../common/api/organization.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { Identifier } from "../../components/Identifier.tsx";
import { Labels } from "../../components/Labels.tsx";
import { Section } from "../../components/Section.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { identitiesQuery } from "../identity/identityApi.ts";
import { updateOf, updateOrganization } from "./organizationApi.ts";

/**
 * The organization's admins, for its admins. An admin can be removed here; a new one is invited,
 * because becoming an admin needs the identity's consent. The signed-in identity always stays one.
 */
export function OrganizationAdmins({ organization }: { readonly organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery(identitiesQuery).data?.find((identity) => identity.isCurrent)?.id;
  const action = useAction();
  const admins = organization.admins ?? [];

  const remove = (admin: string) =>
    action.run(async () => {
      await updateOrganization(queryClient, organization.id, {
        ...updateOf(organization),
        admins: admins.filter((candidate) => candidate !== admin),
      });
    }, t("organizations.admins.updated"));

  return (
    <Section title={t("organizations.admins.title")}>
      <p className="text-sm text-slate-700">{t("organizations.admins.hint")}</p>
      <CardList>
        {admins.map((admin) => (
          <CardItem
            key={admin}
            actions={
              admin !== current && (
                <Button
                  variant="secondary"
                  disabled={action.busy}
                  aria-label={t("organizations.admins.removeTitle", { id: admin })}
                  onClick={() => void remove(admin)}
                >
                  {t("common.remove")}
                </Button>
              )
            }
          >
            <Identifier value={admin} />
            {admin === current && <Labels labels={[t("organizations.admins.current")]} />}
          </CardItem>
        ))}
      </CardList>
      <ActionFeedback action={action} />
    </Section>
  );
}
