import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import type { IdentityInvitation } from "../../../common/api/invitation.ts";
import { pathFor } from "../../../common/routes.ts";
import { useBuiltInNames } from "../../builtInNames.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { LoadedList } from "../../components/LoadedList.tsx";
import { Section } from "../../components/Section.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { toTheMinute, useFormatTimestamp } from "../../format.ts";
import { answer, identityInvitationsQuery } from "../invitation/invitationApi.ts";

/** Names the answer to an invitation, for its button to show it is busy. */
const answerKey = (invitation: IdentityInvitation, accepted: boolean) =>
  `${invitation.id}:${accepted ? "accept" : "decline"}`;

/** For the identity's admins: the organizations that invite it, to accept or decline. */
export function IdentityInvitations({ identityId }: { readonly identityId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formatTimestamp = useFormatTimestamp(toTheMinute);
  const invitations = useQuery(identityInvitationsQuery(identityId));
  const action = useAction();
  const listId = useId();
  const names = useBuiltInNames();

  const respond = (invitation: IdentityInvitation, accepted: boolean) =>
    void action.run(
      () => answer(queryClient, identityId, invitation, accepted),
      t(accepted ? "identities.invitations.accepted" : "identities.invitations.declined"),
      answerKey(invitation, accepted),
    );

  return (
    <Section title={t("identities.invitations.title")}>
      <LoadedList query={invitations} empty={t("identities.invitations.none")}>
        {(items) => (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">{t("identities.invitations.hint")}</p>
            <CardList>
              {items.map((invitation) => (
                <CardItem
                  key={invitation.id}
                  actions={
                    <>
                      <Button
                        {...action.button(answerKey(invitation, true))}
                        aria-describedby={`${listId}-${invitation.id}`}
                        onClick={() => respond(invitation, true)}
                      >
                        {t("identities.invitations.accept")}
                      </Button>
                      <Button
                        variant="secondary"
                        {...action.button(answerKey(invitation, false))}
                        aria-describedby={`${listId}-${invitation.id}`}
                        onClick={() => respond(invitation, false)}
                      >
                        {t("identities.invitations.decline")}
                      </Button>
                    </>
                  }
                >
                  <p id={`${listId}-${invitation.id}`} className="font-medium break-words">
                    <Link
                      to={pathFor("OrganizationGet", { id: invitation.organizationId })}
                      className="text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
                    >
                      {names.organization(invitation.organizationId, invitation.organizationName)}
                    </Link>
                  </p>
                  <p className="text-slate-800 dark:text-slate-200">
                    {t(
                      invitation.role === "admin"
                        ? "identities.invitations.asAdmin"
                        : "identities.invitations.asMember",
                    )}
                  </p>
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    {t("identities.invitations.expires", { date: formatTimestamp(invitation.expiresAt) })}
                  </p>
                </CardItem>
              ))}
            </CardList>
          </>
        )}
      </LoadedList>
      <ActionFeedback action={action} />
    </Section>
  );
}
