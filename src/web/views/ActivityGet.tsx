import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { Activity } from "../../common/api/activity.ts";
import { displayName } from "../../common/api/identity.ts";
import { pathFor } from "../../common/routes.ts";
import { useSiteContext } from "../api.ts";
import { BackLink } from "../components/BackLink.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useFormatTimestamp } from "../format.ts";
import { activityQuery } from "../partials/activity/activityApi.ts";
import { changeText, providerText, typeText } from "../partials/activity/activityText.ts";
import { identitiesQuery } from "../partials/identity/identityApi.ts";
import { useSignedIn } from "../session.ts";

/** One entry of one's activity (spec §2, ActivityGet). */
export function ActivityGet() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const signedIn = useSignedIn();
  const entry = useQuery({ ...activityQuery(id), enabled: signedIn });
  const title = entry.data ? typeText(t, entry.data.type) : t("activity.entryTitle");
  useDocumentTitle(title);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <BackLink to={pathFor("ActivityList")}>{t("activity.back")}</BackLink>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <SignedInContent signedOutMessage={t("activity.signedOut")} query={entry}>
        {(data) => <ActivityDetails entry={data} />}
      </SignedInContent>
    </div>
  );
}

function ActivityDetails({ entry }: { readonly entry: Activity }) {
  const { t } = useTranslation();
  const context = useSiteContext();
  const formatTimestamp = useFormatTimestamp();
  // Names for the identities of the entry that are one's own; others are shown by their ID.
  const identities = useQuery(identitiesQuery);
  const identityName = (identityId: string) => {
    const identity = identities.data?.find((candidate) => candidate.id === identityId);
    return identity ? (
      <Link
        to={pathFor("IdentityGet", { id: identityId })}
        className="text-blue-800 underline underline-offset-4"
      >
        {displayName(identity)}
      </Link>
    ) : (
      <Identifier value={identityId} />
    );
  };

  const rows: [string, ReactNode[]][] = [
    [t("activity.fields.time"), [<time dateTime={entry.timestamp}>{formatTimestamp(entry.timestamp)}</time>]],
    [t("activity.fields.changes"), (entry.changes ?? []).map((change) => changeText(t, entry.type, change))],
    [t("activity.fields.identities"), (entry.identities ?? []).map(({ id }) => identityName(id))],
    [
      t("activity.fields.organizations"),
      (entry.organizations ?? []).map(({ id }) => <Identifier value={id} />),
    ],
    [
      t("activity.fields.applicationTemplates"),
      (entry.applicationTemplates ?? []).map(({ id }) => <Identifier value={id} />),
    ],
    [
      t("activity.fields.applications"),
      (entry.applications ?? []).map(({ organizationId, applicationId }) => (
        <Identifier value={`${organizationId} / ${applicationId}`} />
      )),
    ],
    [
      t("activity.fields.providers"),
      (entry.providers ?? []).map((provider) => providerText(t, context, provider)),
    ],
  ];

  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
      {rows
        .filter(([, values]) => values.length > 0)
        .map(([label, values]) => (
          <div key={label} className="contents">
            <dt className="font-medium">{label}</dt>
            <dd className="flex flex-col gap-1 text-slate-800">
              {values.map((value, index) => (
                // The values of a row are fixed by the entry; their order never changes.
                <span key={index}>{value}</span>
              ))}
            </dd>
          </div>
        ))}
    </dl>
  );
}
