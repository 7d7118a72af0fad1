import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useSearchParams } from "react-router";
import { activityCategoryNames, type Activity, type ActivityCategory } from "../../common/api/activity.ts";
import { Alert } from "../components/Alert.tsx";
import { Button } from "../components/Button.tsx";
import { SelectField } from "../components/SelectField.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { ActivityRow } from "../partials/activity/ActivityEntry.tsx";
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

interface ActivityEntriesProps {
  readonly entries: Activity[];
  readonly entryPath: (entry: Activity) => string;
  readonly empty: string;
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  readonly failedMore: boolean;
  readonly onLoadMore: () => void;
}

function ActivityEntries({
  entries,
  entryPath,
  empty,
  hasMore,
  loadingMore,
  failedMore,
  onLoadMore,
}: ActivityEntriesProps) {
  const { t } = useTranslation();
  // After "Load more", focus moves to the first entry it loaded: the button may be gone.
  const focusFrom = useRef<number | null>(null);
  const links = useRef(new Map<string, HTMLAnchorElement>());
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || from >= entries.length) return;
    focusFrom.current = null;
    links.current.get(entries[from]?.id ?? "")?.focus();
  }, [entries]);

  if (entries.length === 0) return <p className="text-slate-700 dark:text-slate-300">{empty}</p>;
  return (
    <>
      <ol className="flex flex-col gap-3">
        {entries.map((entry) => (
          <ActivityRow
            key={entry.id}
            entry={entry}
            path={entryPath(entry)}
            linkRef={(link) => {
              if (link) links.current.set(entry.id, link);
              else links.current.delete(entry.id);
            }}
          />
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-4">
        {hasMore && (
          <Button
            variant="secondary"
            onClick={() => {
              if (loadingMore) return;
              focusFrom.current = entries.length;
              onLoadMore();
            }}
          >
            {t("activity.loadMore")}
          </Button>
        )}
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {loadingMore ? t("app.loading") : t("activity.shown", { count: entries.length })}
        </p>
      </div>
      {failedMore && <Alert message={t("errors.loadingDataFailed")} />}
    </>
  );
}
