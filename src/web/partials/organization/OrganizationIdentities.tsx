import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import { displayName, type Identity } from "../../../common/api/identity.ts";
import { pathFor } from "../../../common/routes.ts";
import { QueryError } from "../../components/QueryError.tsx";
import { Section } from "../../components/Section.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { IdentityCard } from "../identity/IdentityCard.tsx";
import { MembershipButtons } from "../identity/MembershipButtons.tsx";
import { identitiesQuery, identityQuery, changeMembership } from "../identity/identityApi.ts";
import { useConfirmation } from "./useConfirmation.tsx";

/**
 * The signed-in person's identities in this organization, to disable, activate or take out of it.
 * Joining is not offered: it takes the organization's consent too (a sign-in to its app, or its
 * invitation).
 */
export function OrganizationIdentities({ organizationId }: { readonly organizationId: string }) {
  const { t } = useTranslation();
  const addedId = useId();
  const queryClient = useQueryClient();
  const list = useQuery(identitiesQuery);
  const identities = useQueries({
    queries: (list.data ?? [])
      .filter((identity) => identity.canUpdate)
      .map((identity) => identityQuery(identity.id)),
  });
  const action = useAction();
  const confirmation = useConfirmation();

  const loaded = identities.flatMap((query) => (query.data ? [query.data] : []));
  const membership = (identity: Identity) =>
    identity.organizations?.find((organization) => organization.organizationId === organizationId);
  const added = loaded.filter((identity) => membership(identity) !== undefined);

  /**
   * Saves the identity with this organization's membership set active or, with null, left; the
   * button of `key` shows it is busy.
   */
  const save = (identity: Identity, active: boolean | null, done: string, key: string) =>
    action.run(() => changeMembership(queryClient, identity, organizationId, active), done, key);

  if (list.isError) return <QueryError error={list.error} />;

  return (
    <Section title={t("organizations.identities.added")}>
      {added.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">{t("organizations.identities.noneAdded")}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {added.map((identity) => {
            const active = membership(identity)?.active ?? false;
            const scopedId = membership(identity)?.id ?? "";
            const name = displayName(identity);
            return (
              <IdentityCard
                key={identity.id}
                identity={identity}
                nameId={`${addedId}-${identity.id}`}
                labels={[active ? t("common.labels.active") : t("common.labels.disabled")]}
              >
                <Link
                  to={pathFor("OrganizationIdentity", { id: organizationId, identityId: scopedId })}
                  aria-describedby={`${addedId}-${identity.id}`}
                  className="text-sm text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
                >
                  {t("organizations.identity.view")}
                </Link>
                <MembershipButtons
                  active={active}
                  itemKey={identity.id}
                  describedBy={`${addedId}-${identity.id}`}
                  action={action}
                  ask={confirmation.ask}
                  save={(wanted, done, key) => void save(identity, wanted, done, key)}
                  name={name}
                  removeLabel={t("common.remove")}
                  texts="organizations.identities"
                />
              </IdentityCard>
            );
          })}
        </ul>
      )}
      <p className="text-sm text-slate-700 dark:text-slate-300">{t("organizations.identities.howToJoin")}</p>
      <ActionFeedback action={action} />
      {confirmation.dialog}
    </Section>
  );
}
