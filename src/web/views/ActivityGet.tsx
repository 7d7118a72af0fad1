import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import type { Activity } from "../../common/api/activity.ts";
import { pathFor } from "../../common/routes.ts";
import { useSiteContext } from "../api.ts";
import { Breadcrumbs, type Crumb } from "../components/Breadcrumbs.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useFormatTimestamp } from "../format.ts";
import { ActivityIcon } from "../partials/activity/ActivityIcon.tsx";
import {
  ActorName,
  ChangeSentences,
  ReferenceNames,
  SentenceView,
  useActivityWords,
} from "../partials/activity/ActivityEntry.tsx";
import { activityQuery } from "../partials/activity/activityApi.ts";
import { headline, providerText, sentenceText } from "../partials/activity/activityText.ts";
import { useSignedIn } from "../session.ts";

/** One entry of one's activity, in words, with everything it refers to (spec §2, ActivityGet). */
export function ActivityGet() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  return (
    <ActivityEntryPage
      query={activityQuery(id)}
      trail={[{ label: t("activity.title"), to: pathFor("ActivityList") }]}
    />
  );
}

/** One entry of a list of activity, below the trail that leads to the list. */
export function ActivityEntryPage({
  query,
  trail,
}: {
  readonly query: ReturnType<typeof activityQuery>;
  readonly trail: readonly Crumb[];
}) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const entry = useQuery({ ...query, enabled: signedIn });
  const words = useActivityWords();
  const title = entry.data ? headline(words, entry.data) : undefined;
  const titleText = title ? sentenceText(title) : t("activity.entryTitle");
  useDocumentTitle(titleText);

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs trail={trail} current={titleText} />
      <div className="flex items-start gap-3">
        {entry.data && <ActivityIcon type={entry.data.type} />}
        <h1 className="min-w-0 text-2xl font-bold tracking-tight break-words sm:text-3xl">
          {title ? <SentenceView sentence={title} /> : t("activity.entryTitle")}
        </h1>
      </div>
      <SignedInContent signedOutMessage={t("activity.signedOut")} query={entry}>
        {(data) => <ActivityDetails entry={data} />}
      </SignedInContent>
    </div>
  );
}

function ActivityDetails({ entry }: { readonly entry: Activity }) {
  const { t, language } = useTranslation();
  const context = useSiteContext();
  const formatTimestamp = useFormatTimestamp();
  const has = (items: readonly unknown[] | undefined) => (items?.length ?? 0) > 0;

  const fields: [string, ReactNode][] = [
    [t("activity.fields.time"), <time dateTime={entry.timestamp}>{formatTimestamp(entry.timestamp)}</time>],
    [t("activity.fields.actor"), entry.actor && <ActorName entry={entry} />],
    [t("activity.fields.changes"), has(entry.changes) && <ChangeSentences entry={entry} />],
    [
      t("activity.fields.organizations"),
      has(entry.organizations) && <ReferenceNames entry={entry} kind="organization" />,
    ],
    [
      t("activity.fields.applications"),
      has(entry.applications) && <ReferenceNames entry={entry} kind="application" />,
    ],
    [
      t("activity.fields.identities"),
      has(entry.identities) && <ReferenceNames entry={entry} kind="identity" />,
    ],
    [
      t("activity.fields.applicationTemplates"),
      has(entry.applicationTemplates) && <ReferenceNames entry={entry} kind="applicationTemplate" />,
    ],
    [
      t("activity.fields.providers"),
      entry.providers?.map((provider) => providerText(t, context, provider, language)).join(", "),
    ],
  ];
  return <DetailList fields={fields} />;
}
