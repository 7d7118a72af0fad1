import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Activity } from "../../common/api/activity.ts";
import { pathFor } from "../../common/routes.ts";
import { Alert } from "../components/Alert.tsx";
import { Button } from "../components/Button.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useFormatTimestamp } from "../format.ts";
import { activityListQuery } from "../partials/activity/activityApi.ts";
import { changeText, typeText } from "../partials/activity/activityText.ts";
import { useSignedIn } from "../session.ts";

/** One's own activity, newest first (spec §2, ActivityList). */
export function ActivityList() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const activity = useInfiniteQuery({ ...activityListQuery, enabled: signedIn });
  const entries = useMemo(() => activity.data?.pages.flatMap((page) => page.items) ?? [], [activity.data]);
  useDocumentTitle(t("activity.title"));

  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">{t("activity.title")}</h1>
      <div className="mt-6">
        <SignedInContent signedOutMessage={t("activity.signedOut")} query={activity}>
          {() => (
            <ActivityEntries
              entries={entries}
              hasMore={activity.hasNextPage}
              loadingMore={activity.isFetchingNextPage}
              failedMore={activity.isFetchNextPageError}
              onLoadMore={() => void activity.fetchNextPage()}
            />
          )}
        </SignedInContent>
      </div>
    </>
  );
}

interface ActivityEntriesProps {
  readonly entries: Activity[];
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  readonly failedMore: boolean;
  readonly onLoadMore: () => void;
}

function ActivityEntries({ entries, hasMore, loadingMore, failedMore, onLoadMore }: ActivityEntriesProps) {
  const { t } = useTranslation();
  const formatTimestamp = useFormatTimestamp();
  // After "Load more", focus moves to the first entry it loaded: the button may be gone.
  const focusFrom = useRef<number | null>(null);
  const links = useRef(new Map<string, HTMLAnchorElement>());
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || from >= entries.length) return;
    focusFrom.current = null;
    links.current.get(entries[from]?.id ?? "")?.focus();
  }, [entries]);

  if (entries.length === 0) return <p>{t("activity.empty")}</p>;
  return (
    <>
      <ol className="flex flex-col gap-2">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 rounded-md border border-slate-200 px-4 py-3"
          >
            <div className="min-w-0">
              <Link
                ref={(link) => {
                  if (link) links.current.set(entry.id, link);
                  else links.current.delete(entry.id);
                }}
                to={pathFor("ActivityGet", { id: entry.id })}
                className="font-medium text-blue-800 underline underline-offset-4 hover:text-blue-900"
              >
                {typeText(t, entry.type)}
              </Link>
              {entry.changes && entry.changes.length > 0 && (
                <p className="text-sm text-slate-700">
                  {entry.changes.map((change) => changeText(t, entry.type, change)).join(", ")}
                </p>
              )}
            </div>
            <time dateTime={entry.timestamp} className="text-sm text-slate-700">
              {formatTimestamp(entry.timestamp)}
            </time>
          </li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap items-center gap-4">
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
        <p role="status" className="text-sm text-slate-700">
          {loadingMore ? t("app.loading") : t("activity.shown", { count: entries.length })}
        </p>
      </div>
      {failedMore && <Alert message={t("errors.loadingDataFailed")} />}
    </>
  );
}
