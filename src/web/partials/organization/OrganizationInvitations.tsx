import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { displayName } from "../../../common/api/identity.ts";
import type { InvitationRole } from "../../../common/api/invitation.ts";
import { invitationLifetimeMs } from "../../../common/limits.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { Labels } from "../../components/Labels.tsx";
import { LoadedList } from "../../components/LoadedList.tsx";
import { Section } from "../../components/Section.tsx";
import { SectionForm } from "../../components/SectionForm.tsx";
import { TextField } from "../../components/Field.tsx";
import { SelectField } from "../../components/SelectField.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { toTheMinute, useFormatTimestamp } from "../../format.ts";
import { IdentityPicker } from "../identity/IdentityPicker.tsx";
import { useKnownIdentity } from "../../currentIdentity.ts";
import { PersonSummary } from "../identity/Person.tsx";
import { invite, organizationInvitationsQuery, withdraw } from "../invitation/invitationApi.ts";
import { useConfirmation } from "./useConfirmation.tsx";

const dayMs = 24 * 60 * 60 * 1000;

/** Whom an invitation names: an identity by its ID, or whoever reads an e-mail address. */
type Invitee = "identity" | "address";

/**
 * For the organization's admins: inviting an identity, or a person by e-mail address, as admin or
 * member, and the pending invitations.
 */
export function OrganizationInvitations({ organizationId }: { readonly organizationId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [invitee, setInvitee] = useState<Invitee>("identity");
  const [invited, setInvited] = useState<string[]>([]);
  const [address, setAddress] = useState("");
  const [role, setRole] = useState<InvitationRole>("member");

  return (
    <>
      <SectionForm
        title={t("organizations.invitations.title")}
        submitLabel={t("organizations.invitations.invite")}
        savedMessage={t("organizations.invitations.sent")}
        onSubmit={async () => {
          if (invitee === "address") {
            await invite(queryClient, organizationId, { address, role });
            setAddress("");
          } else {
            await invite(queryClient, organizationId, { identityId: invited[0] ?? "", role });
            setInvited([]);
          }
        }}
      >
        {(fieldError) => (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t("organizations.invitations.hint", { count: invitationLifetimeMs / dayMs })}
            </p>
            <SelectField
              label={t("organizations.invitations.invitee")}
              value={invitee}
              options={[
                ["identity", t("organizations.invitations.invitees.identity")],
                ["address", t("organizations.invitations.invitees.address")],
              ]}
              onChange={setInvitee}
            />
            {invitee === "address" ? (
              <TextField
                label={t("organizations.invitations.address")}
                hint={t("organizations.invitations.addressHint")}
                name="address"
                type="email"
                autoComplete="off"
                required
                value={address}
                error={fieldError("address")}
                onChange={(event) => setAddress(event.target.value)}
              />
            ) : (
              <IdentityPicker
                label={t("organizations.invitations.identity")}
                hint={t("organizations.invitations.identityHint")}
                name="identityId"
                single
                selected={invited}
                error={fieldError("identityId")}
                onChange={setInvited}
              />
            )}
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
  const known = useKnownIdentity();
  const action = useAction();
  const confirmation = useConfirmation();

  return (
    <Section title={t("organizations.invitations.pending")}>
      <LoadedList query={invitations} empty={t("organizations.invitations.none")}>
        {(items) => (
          <CardList>
            {items.map((invitation) => {
              const identity = invitation.identityId === undefined ? undefined : known(invitation.identityId);
              const name =
                invitation.address ?? (identity ? displayName(identity) : (invitation.identityId ?? ""));
              const roleLabel = <Labels labels={[t(`common.labels.${invitation.role}`)]} />;
              return (
                <CardItem
                  key={invitation.id}
                  actions={
                    <Button
                      variant="secondary"
                      {...action.button(invitation.id)}
                      aria-label={t("organizations.invitations.withdrawLabel", { name })}
                      onClick={() =>
                        confirmation.ask({
                          title: t("organizations.invitations.withdrawConfirm.title", { name }),
                          message: t("organizations.invitations.withdrawConfirm.message", { name }),
                          confirmLabel: t("organizations.invitations.withdraw"),
                          destructive: true,
                          onConfirm: () =>
                            void action.run(
                              () => withdraw(queryClient, organizationId, invitation),
                              t("organizations.invitations.withdrawn"),
                              invitation.id,
                            ),
                        })
                      }
                    >
                      {t("organizations.invitations.withdraw")}
                    </Button>
                  }
                >
                  {invitation.identityId === undefined ? (
                    <p className="font-medium break-words">
                      {invitation.address}
                      {roleLabel}
                      <span className="block text-sm font-normal text-slate-700 dark:text-slate-300">
                        {t("organizations.invitations.byEmail")}
                      </span>
                    </p>
                  ) : (
                    <PersonSummary id={invitation.identityId} identity={identity} labels={roleLabel} />
                  )}
                  <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                    {t("organizations.invitations.expires", { date: formatTimestamp(invitation.expiresAt) })}
                  </p>
                </CardItem>
              );
            })}
          </CardList>
        )}
      </LoadedList>
      <ActionFeedback action={action} />
      {confirmation.dialog}
    </Section>
  );
}
