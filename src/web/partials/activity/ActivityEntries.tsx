import { useEffect, useRef } from "react";
import type { Activity } from "../../../common/api/activity.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { ActivityRow } from "./ActivityEntry.tsx";

/** Entries of an activity list, newest first, with "Load more" while there are more. */
export interface ActivityEntriesProps {
  readonly entries: Activity[];
  readonly entryPath: (entry: Activity) => string;
  readonly empty: string;
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  readonly failedMore: boolean;
  readonly onLoadMore: () => void;
}

export function ActivityEntries({
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
