import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Identity, IdentityMember } from "../../../common/api/identity.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { TextField } from "../../components/Field.tsx";
import { Labels } from "../../components/Labels.tsx";
import { SectionForm } from "../../components/SectionForm.tsx";
import { identityQuery, invalidateAfterIdentityChange, updateIdentity } from "./identityApi.ts";
import { useKnownIdentity } from "../../currentIdentity.ts";
import { PersonSummary } from "./Person.tsx";

export type MemberRole = "users" | "admins";

/** A person it was shared with, named as the username or e-mail address it was shared by. */
const personAsNamed = (member: IdentityMember, person: string) =>
  person.includes("@") ? { id: member.id, email: person } : { id: member.id, username: person };

/**
 * Who may use the identity, or who administers it, for its admins: each can be removed (the last
 * admin cannot), and a person is added by their username or e-mail address. Update saves the list.
 */
export function IdentityMembers({
  identity,
  role,
}: {
  readonly identity: Identity;
  readonly role: MemberRole;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const known = useKnownIdentity();
  const rowId = useId();
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [person, setPerson] = useState("");
  const kept = (identity[role] ?? []).filter((member) => !removed.has(member.id));
  // An identity keeps at least one admin: the last one's Remove is disabled (the server refuses too).
  const lastAdmin = role === "admins" && kept.length === 1;

  const labels = (member: IdentityMember) => [
    ...(member.creator ? [t("identities.labels.creator")] : []),
    ...(member.isCurrent ? [t("identities.labels.current")] : []),
  ];
  const named = (member: IdentityMember) =>
    member.person !== undefined
      ? personAsNamed(member, member.person)
      : member.creator
        ? identity
        : known(member.id);

  return (
    <SectionForm
      title={t(`identities.members.${role}.title`)}
      submitLabel={t(`identities.members.${role}.save`)}
      savedMessage={t(`identities.members.${role}.updated`)}
      onSubmit={async () => {
        const typed = person.trim();
        const list = [...kept.map(({ id }) => ({ id })), ...(typed ? [{ person: typed }] : [])];
        const updated = await updateIdentity(identity.id, { version: identity.version, [role]: list });
        queryClient.setQueryData(identityQuery(identity.id).queryKey, updated);
        setRemoved(new Set());
        setPerson("");
        await invalidateAfterIdentityChange(queryClient);
      }}
    >
      {(fieldError) => (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">{t(`identities.members.${role}.hint`)}</p>
          {kept.length === 0 ? (
            <p className="text-slate-700 dark:text-slate-300">{t(`identities.members.${role}.none`)}</p>
          ) : (
            <CardList>
              {kept.map((member) => (
                <CardItem
                  key={member.id}
                  actions={
                    <Button
                      variant="secondary"
                      disabled={lastAdmin}
                      aria-describedby={`${rowId}-${member.id}${lastAdmin ? ` ${rowId}-last` : ""}`}
                      onClick={() => setRemoved(new Set(removed).add(member.id))}
                    >
                      {t("common.remove")}
                    </Button>
                  }
                >
                  <PersonSummary
                    id={member.id}
                    identity={named(member)}
                    nameId={`${rowId}-${member.id}`}
                    labels={<Labels labels={labels(member)} />}
                  />
                </CardItem>
              ))}
            </CardList>
          )}
          {lastAdmin && (
            <p id={`${rowId}-last`} className="text-sm text-slate-700 dark:text-slate-300">
              {t("identities.members.admins.last")}
            </p>
          )}
          <TextField
            label={t(`identities.members.${role}.add`)}
            hint={t("identities.members.addHint")}
            name={`${role}.${kept.length}.person`}
            autoComplete="off"
            spellCheck={false}
            value={person}
            error={fieldError(`${role}.${kept.length}.person`)}
            onChange={(event) => setPerson(event.target.value)}
          />
        </>
      )}
    </SectionForm>
  );
}
