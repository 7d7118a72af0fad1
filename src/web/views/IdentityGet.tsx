import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useLocation, useNavigate, useParams } from "react-router";
import { displayName, type Identity } from "../../common/api/identity.ts";
import { pathFor } from "../../common/routes.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { CopyButton } from "../components/CopyButton.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { Labels } from "../components/Labels.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import {
  identityQuery,
  invalidateAfterIdentityChange,
  updateIdentity,
} from "../partials/identity/identityApi.ts";
import { IdentityForm } from "../partials/identity/IdentityForm.tsx";
import { IdentityInvitations } from "../partials/identity/IdentityInvitations.tsx";
import { IdentityMembers } from "../partials/identity/IdentityMembers.tsx";
import { IdentityOrganizations } from "../partials/identity/IdentityOrganizations.tsx";
import { identityLabels } from "../partials/identity/identityLabels.ts";
import { useSignedIn } from "../session.ts";
import type { CreatedState } from "./IdentityCreate.tsx";

const isCreatedState = (state: unknown): state is CreatedState =>
  typeof state === "object" && state !== null && (state as Partial<CreatedState>).created === true;

/**
 * One identity (spec §2, IdentityGet): its fields and organizations; for its admins, its invitations,
 * its users and admins, and a form to change it. Someone who may only use it reads it.
 */
export function IdentityGet() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const signedIn = useSignedIn();
  const identity = useQuery({ ...identityQuery(id), enabled: signedIn });
  const name = identity.data ? displayName(identity.data) : t("identities.page.title");
  useDocumentTitle(name);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <Breadcrumbs trail={[{ label: t("identities.title"), to: pathFor("IdentityList") }]} current={name} />
      {identity.data === undefined && (
        <h1 className="text-3xl font-bold tracking-tight">{t("identities.page.title")}</h1>
      )}
      <SignedInContent signedOutMessage={t("identities.page.signedOut")} query={identity}>
        {(data) => <IdentityDetails key={id} identity={data} />}
      </SignedInContent>
    </div>
  );
}

function IdentityDetails({ identity }: { readonly identity: Identity }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  // Said once: the state is dropped so that a reload or a return through history does not repeat it.
  const [created] = useState(() => isCreatedState(location.state));
  useEffect(() => {
    if (!created) return;
    heading.current?.focus();
    void navigate(location.pathname, { replace: true, state: null });
  }, [created, navigate, location.pathname]);

  const fields: [string, ReactNode][] = [
    [t("identities.fields.username"), identity.username],
    [t("identities.fields.email"), identity.email],
    [t("identities.fields.givenName"), identity.givenName],
    [t("identities.fields.fullName"), identity.fullName],
    [
      t("identities.fields.pictureUrl"),
      identity.pictureUrl && (
        <span className="flex flex-wrap items-center gap-3">
          <img src={identity.pictureUrl} alt="" className="size-12 rounded-full object-cover" />
          <Identifier value={identity.pictureUrl} />
        </span>
      ),
    ],
    [t("identities.fields.description"), identity.description],
    [
      t("identities.fields.id"),
      <span className="flex flex-col items-start gap-2">
        <span className="flex flex-wrap items-center gap-2">
          <Identifier value={identity.id} />
          <CopyButton value={identity.id} label={t("identities.page.copyId")} />
        </span>
        <span className="text-sm text-slate-700 dark:text-slate-300">{t("identities.page.shareId")}</span>
      </span>,
    ],
  ];

  return (
    <>
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight focus:outline-none">
        <span className="break-words">{displayName(identity)}</span>
        <Labels labels={identityLabels(t, identity)} />
      </h1>
      <p role="status" className="font-medium text-green-800 dark:text-green-300">
        {created ? t("identities.form.created") : ""}
      </p>
      <DetailList fields={fields} />
      {!identity.canUpdate && (
        <p className="text-slate-700 dark:text-slate-300">{t("identities.page.useOnly")}</p>
      )}
      <IdentityOrganizations identity={identity} />
      {identity.canUpdate && (
        <>
          <IdentityInvitations identityId={identity.id} />
          <IdentityMembers identity={identity} role="users" />
          <IdentityMembers identity={identity} role="admins" />
          <IdentityUpdate identity={identity} />
        </>
      )}
    </>
  );
}

/**
 * The edit form: it saves over the version shown (which the page's other sections move on as they
 * save), so a change made elsewhere meanwhile is not lost.
 */
function IdentityUpdate({ identity }: { readonly identity: Identity }) {
  const { t } = useTranslation();
  const headingId = useId();
  const queryClient = useQueryClient();

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 border-t border-slate-200 pt-6 dark:border-slate-700"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        {t("identities.page.update")}
      </h2>
      <IdentityForm
        labelledBy={headingId}
        initial={identity}
        submitLabel={t("common.saveChanges")}
        savedMessage={t("identities.form.updated")}
        onSubmit={async (fields) => {
          const updated = await updateIdentity(identity.id, { ...fields, version: identity.version });
          queryClient.setQueryData(identityQuery(identity.id).queryKey, updated);
          await invalidateAfterIdentityChange(queryClient);
        }}
      />
    </section>
  );
}
