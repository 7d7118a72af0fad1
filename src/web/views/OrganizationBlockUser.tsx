import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import type { BlockPage, BlockScope } from "../../common/api/block.ts";
import { blockScopes } from "../../common/api/block.ts";
import { displayName } from "../../common/api/identity.ts";
import { blockNoteMaxLength } from "../../common/limits.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { Button } from "../components/Button.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { TextAreaField } from "../components/Field.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { Labels } from "../components/Labels.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { Section } from "../components/Section.tsx";
import { ActionFeedback, useAction, type Action } from "../components/useAction.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useFormatTimestamp } from "../format.ts";
import { PersonAvatar } from "../partials/identity/Person.tsx";
import { blockPageQuery, changeBlock } from "../partials/organization/blockApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { useConfirmation } from "../partials/organization/useConfirmation.tsx";
import { pathFor } from "../../common/routes.ts";

/**
 * Block user (spec §2): the organization's admins block one of its identities, or the identity and
 * every other identity of the people behind it, with a note for admins and one for the person; a
 * block in force is shown as a record that can be lifted.
 */
export function OrganizationBlockUser() {
  const { t } = useTranslation();
  const { id = "", identityId = "" } = useParams();
  const page = useQuery(blockPageQuery(id, identityId));
  const action = useAction();
  const title = t("organizations.block.title");
  useDocumentTitle(title);
  const identity = page.data?.identity;
  const trail = [
    ...useOrganizationTrail(id),
    ...(identity
      ? [{ label: displayName(identity), to: pathFor("OrganizationIdentity", { id, identityId }) }]
      : []),
  ];

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs trail={trail} current={title} />
      <h1 className="text-3xl font-bold tracking-tight break-words">{title}</h1>
      {page.data !== undefined ? (
        <>
          <BlockedIdentity page={page.data} />
          {page.data.block ? (
            <BlockRecord page={page.data} organizationId={id} action={action} />
          ) : (
            <BlockForm page={page.data} organizationId={id} action={action} />
          )}
          <ActionFeedback action={action} />
        </>
      ) : page.isError ? (
        <QueryError error={page.error} />
      ) : (
        <p role="status">{t("app.loading")}</p>
      )}
    </div>
  );
}

function BlockedIdentity({ page: { identity } }: { readonly page: BlockPage }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-3 rounded-md border border-slate-200 px-4 py-3 dark:border-slate-700">
      <PersonAvatar identity={identity} />
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words">
          {displayName(identity)}
          <Labels labels={identity.blocked ? [t("common.labels.blocked")] : []} />
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("organizations.identity.scopedId")}: <Identifier value={identity.id} />
        </p>
      </div>
    </div>
  );
}

interface PartProps {
  readonly page: BlockPage;
  readonly organizationId: string;
  readonly action: Action;
}

function BlockForm({ page, organizationId, action }: PartProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const legendId = useId();
  const [scope, setScope] = useState<BlockScope>("identity");
  const [adminNote, setAdminNote] = useState("");
  const [userNote, setUserNote] = useState("");
  const { ask, dialog } = useConfirmation();
  const name = displayName(page.identity);

  const block = () =>
    void action.run(async () => {
      await changeBlock(queryClient, organizationId, page.identity.id, { scope, adminNote, userNote });
    }, t("organizations.block.blocked"));

  return (
    <Section title={t("organizations.block.formTitle")}>
      <form
        className="flex flex-col gap-5"
        onSubmit={(event) => {
          event.preventDefault();
          ask({
            title: t("organizations.block.confirmTitle", { name }),
            message: t(`organizations.block.confirm.${scope}`),
            confirmLabel: t("organizations.block.submit"),
            destructive: true,
            onConfirm: block,
          });
        }}
      >
        <fieldset aria-labelledby={legendId} className="flex min-w-0 flex-col gap-2">
          <legend id={legendId} className="mb-1 font-medium">
            {t("organizations.block.scope")}
          </legend>
          {blockScopes.map((value) => (
            <label
              key={value}
              className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 px-3 py-2 has-checked:border-blue-700 has-checked:bg-blue-50 dark:border-slate-600 dark:has-checked:bg-blue-950"
            >
              <input
                type="radio"
                name="scope"
                value={value}
                checked={scope === value}
                onChange={() => setScope(value)}
                className="mt-1 accent-blue-700"
              />
              <span className="flex min-w-0 flex-col">
                <span>{t(`organizations.block.scopes.${value}.label`)}</span>
                <span className="text-sm text-slate-700 dark:text-slate-300">
                  {t(`organizations.block.scopes.${value}.hint`)}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <TextAreaField
          label={t("organizations.block.adminNote")}
          hint={t("organizations.block.adminNoteHint")}
          value={adminNote}
          maxLength={blockNoteMaxLength}
          rows={3}
          onChange={(event) => setAdminNote(event.target.value)}
        />
        <TextAreaField
          label={t("organizations.block.userNote")}
          hint={t("organizations.block.userNoteHint")}
          value={userNote}
          maxLength={blockNoteMaxLength}
          rows={3}
          onChange={(event) => setUserNote(event.target.value)}
        />
        <div>
          <Button type="submit" variant="danger" busy={action.busy}>
            {t("organizations.block.submit")}
          </Button>
        </div>
      </form>
      {dialog}
    </Section>
  );
}

function BlockRecord({ page, organizationId, action }: PartProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formatTimestamp = useFormatTimestamp();
  const { ask, dialog } = useConfirmation();
  const block = page.block;
  if (!block) return null;
  const noNote = (
    <span className="text-slate-700 italic dark:text-slate-300">{t("organizations.block.noNote")}</span>
  );

  return (
    <Section title={t("organizations.block.recordTitle")}>
      <DetailList
        fields={[
          [t("organizations.block.scope"), t(`organizations.block.scopes.${block.scope}.label`)],
          [
            t("organizations.block.blockedBy"),
            block.blockedBy.name ?? <Identifier value={block.blockedBy.id} />,
          ],
          [t("organizations.block.blockedAt"), formatTimestamp(block.createdAt)],
          [t("organizations.block.adminNote"), block.adminNote || noNote],
          [t("organizations.block.userNote"), block.userNote || noNote],
        ]}
      />
      <div className="mt-4">
        <Button
          variant="secondary"
          busy={action.busy}
          onClick={() =>
            ask({
              title: t("organizations.block.unblockTitle", { name: displayName(page.identity) }),
              message: t("organizations.block.unblockMessage"),
              confirmLabel: t("organizations.block.unblock"),
              onConfirm: () =>
                void action.run(async () => {
                  await changeBlock(queryClient, organizationId, page.identity.id, { unblock: true });
                }, t("organizations.block.unblocked")),
            })
          }
        >
          {t("organizations.block.unblock")}
        </Button>
      </div>
      {dialog}
    </Section>
  );
}
