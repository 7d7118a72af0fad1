import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { InvitationRole } from "../../../common/api/invitation.ts";
import { invitationLifetimeMs } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { TextField } from "../../components/Field.tsx";
import { Identifier } from "../../components/Identifier.tsx";
import { Labels } from "../../components/Labels.tsx";
import { LoadedList } from "../../components/LoadedList.tsx";
import { Section } from "../../components/Section.tsx";
import { SectionForm } from "../../components/SectionForm.tsx";
import { SelectField } from "../../components/SelectField.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { toTheMinute, useFormatTimestamp } from "../../format.ts";
import { invite, organizationInvitationsQuery, withdraw } from "../invitation/invitationApi.ts";

const dayMs = 24 * 60 * 60 * 1000;

/** For the organization's admins: inviting an identity as admin or member, and the pending invitations. */
export function OrganizationInvitations({ organizationId }: { readonly organizationId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [identityId, setIdentityId] = useState("");
  const [role, setRole] = useState<InvitationRole>("member");

  return (
    <>
      <SectionForm
        title={t("organizations.invitations.title")}
        submitLabel={t("organizations.invitations.invite")}
        savedMessage={t("organizations.invitations.sent")}
        onSubmit={async () => {
          await invite(queryClient, organizationId, { identityId: identityId.trim(), role });
          setIdentityId("");
        }}
      >
        {(fieldError) => (
          <>
            <p className="text-sm text-slate-700">
              {t("organizations.invitations.hint", { count: invitationLifetimeMs / dayMs })}
            </p>
            <TextField
              label={t("organizations.invitations.identityId")}
              name="identityId"
              required
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              value={identityId}
              error={fieldError("identityId")}
              onChange={(event) => setIdentityId(event.target.value)}
            />
            <SelectField
              label={t("organizations.invitations.role")}
              value={role}
              options={[
                ["member", t("organizations.invitations.roles.member")],
                ["admin", t("organizations.invitations.roles.admin")],
              ]}
              onChange={setRole}
            />
          </>
        )}
      </SectionForm>
      <PendingInvitations organizationId={organizationId} />
    </>
  );
}

function PendingInvitations({ organizationId }: { readonly organizationId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formatTimestamp = useFormatTimestamp(toTheMinute);
  const invitations = useQuery(organizationInvitationsQuery(organizationId));
  const action = useAction();
  const listId = useId();

  return (
    <Section title={t("organizations.invitations.pending")}>
      <LoadedList query={invitations} empty={t("organizations.invitations.none")}>
        {(items) => (
          <CardList>
            {items.map((invitation) => (
              <CardItem
                key={invitation.id}
                actions={
                  <Button
                    variant="secondary"
                    disabled={action.busy}
                    aria-describedby={`${listId}-${invitation.id}`}
                    onClick={() =>
                      void action.run(
                        () => withdraw(queryClient, organizationId, invitation),
                        t("organizations.invitations.withdrawn"),
                      )
                    }
                  >
                    {t("organizations.invitations.withdraw")}
                  </Button>
                }
              >
                <p id={`${listId}-${invitation.id}`}>
                  <Identifier value={invitation.identityId} />
                  <Labels labels={[t(`common.labels.${invitation.role}`)]} />
                </p>
                <p className="text-sm text-slate-700">
                  {t("organizations.invitations.expires", { date: formatTimestamp(invitation.expiresAt) })}
                </p>
              </CardItem>
            ))}
          </CardList>
        )}
      </LoadedList>
      <ActionFeedback action={action} />
    </Section>
  );
}
