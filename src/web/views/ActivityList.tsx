import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, type ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useSearchParams } from "react-router";
import { activityCategoryNames, type Activity, type ActivityCategory } from "../../common/api/activity.ts";
import { SelectField } from "../components/SelectField.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { ActivityEntries } from "../partials/activity/ActivityEntries.tsx";
import { activityListQuery } from "../partials/activity/activityApi.ts";
import { useSignedIn } from "../session.ts";
import { pathFor } from "../../common/routes.ts";

type Shown = ActivityCategory | "all";

function isCategory(value: string | null): value is ActivityCategory {
  return (activityCategoryNames as (string | null)[]).includes(value);
}

/** One's activity, newest first, optionally of one category, kept in the address (spec §2, ActivityList). */
export function ActivityList() {
  const { t } = useTranslation();
  return (
    <ActivityListPage
      title={t("activity.title")}
      signedOutMessage={t("activity.signedOut")}
      query={activityListQuery}
      entryPath={(entry) => pathFor("ActivityGet", { id: entry.id })}
    />
  );
}

type ActivityListOptions = ReturnType<typeof activityListQuery>;

interface ActivityListPageProps {
  readonly title: string;
  readonly signedOutMessage: string;
  /** The list's query, of one category or all. */
  readonly query: (category: ActivityCategory | undefined) => ActivityListOptions;
  readonly entryPath: (entry: Activity) => string;
  /** Above the title: where the list sits. */
  readonly header?: ReactNode;
  /** Below the title: a note on what else narrows the list. */
  readonly note?: ReactNode;
}

/** A list of activity, newest first, optionally of one category kept in the address. */
export function ActivityListPage({
  title,
  signedOutMessage,
  query,
  entryPath,
  header,
  note,
}: ActivityListPageProps) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [search, setSearch] = useSearchParams();
  const requested = search.get("category");
  const category = isCategory(requested) ? requested : undefined;
  const activity = useInfiniteQuery({ ...query(category), enabled: signedIn });
  const entries = useMemo(() => activity.data?.pages.flatMap((page) => page.items) ?? [], [activity.data]);
  useDocumentTitle(title);

  const options: [Shown, string][] = [
    ["all", t("activity.filter.all")],
    ...activityCategoryNames.map((name): [Shown, string] => [name, t(`activity.filter.${name}`)]),
  ];

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      {header}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {signedIn && (
          <div className="w-full sm:w-64">
            <SelectField
              label={t("activity.filter.label")}
              value={category ?? "all"}
              options={options}
              onChange={(shown) => {
                // Other filters of the address stay.
                const next = new URLSearchParams(search);
                if (shown === "all") next.delete("category");
                else next.set("category", shown);
                setSearch(next, { replace: true });
              }}
            />
          </div>
        )}
      </div>
      {note}
      <SignedInContent signedOutMessage={signedOutMessage} query={activity}>
        {() => (
          <ActivityEntries
            entries={entries}
            entryPath={entryPath}
            empty={category ? t("activity.emptyCategory") : t("activity.empty")}
            hasMore={activity.hasNextPage}
            loadingMore={activity.isFetchingNextPage}
            failedMore={activity.isFetchNextPageError}
            onLoadMore={() => void activity.fetchNextPage()}
          />
        )}
      </SignedInContent>
    </div>
  );
}
