import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import type { Identity } from "../../../common/api/identity.ts";
import { pathFor } from "../../../common/routes.ts";
import { useBuiltInNames } from "../../builtInNames.ts";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { Identifier } from "../../components/Identifier.tsx";
import { Labels } from "../../components/Labels.tsx";
import { Section } from "../../components/Section.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { useConfirmation } from "../organization/useConfirmation.tsx";
import { changeMembership } from "./identityApi.ts";
import { MembershipButtons } from "./MembershipButtons.tsx";

/**
 * The organizations the identity is in (spec §2, identity page: added organizations), each with the ID
 * it has there, its status and the apps it used; its admins activate, disable or leave from here.
 * Joining takes the organization's consent too, so it happens through an invitation or a sign-in.
 */
export function IdentityOrganizations({ identity }: { readonly identity: Identity }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const names = useBuiltInNames();
  const rowId = useId();
  const action = useAction();
  const confirmation = useConfirmation();
  const memberships = identity.organizations ?? [];

  const save = (organizationId: string, active: boolean | null, done: string, key: string) =>
    action.run(() => changeMembership(queryClient, identity, organizationId, active), done, key);

  return (
    <Section title={t("identities.organizations.title")}>
      {memberships.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">{t("identities.organizations.none")}</p>
      ) : (
        <CardList>
          {memberships.map((membership) => {
            const { organizationId, active } = membership;
            const name = names.organization(organizationId, membership.organizationName ?? organizationId);
            const nameId = `${rowId}-${organizationId}`;
            return (
              <CardItem
                key={organizationId}
                actions={
                  identity.canUpdate && (
                    <MembershipButtons
                      active={active}
                      itemKey={organizationId}
                      describedBy={nameId}
                      action={action}
                      ask={confirmation.ask}
                      save={(wanted, done, key) => void save(organizationId, wanted, done, key)}
                      name={name}
                      removeLabel={t("identities.organizations.leave")}
                      texts="identities.organizations"
                    />
                  )
                }
              >
                <p id={nameId} className="font-medium break-words">
                  <Link
                    to={pathFor("OrganizationGet", { id: organizationId })}
                    className="text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
                  >
                    {name}
                  </Link>
                  <Labels
                    labels={[
                      t("common.labels.added"),
                      active ? t("common.labels.active") : t("common.labels.disabled"),
                    ]}
                  />
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  {t("identities.organizations.scopedId")} <Identifier value={membership.id} />
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  {membership.applications.length === 0
                    ? t("identities.organizations.noApplications")
                    : t("identities.organizations.applications", { count: membership.applications.length })}
                </p>
              </CardItem>
            );
          })}
        </CardList>
      )}
      <p className="text-sm text-slate-700 dark:text-slate-300">{t("identities.organizations.howToJoin")}</p>
      <ActionFeedback action={action} />
      {confirmation.dialog}
    </Section>
  );
}
