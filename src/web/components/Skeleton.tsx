import { useTranslation } from "../i18n/index.ts";

// Grey shapes where content is about to appear, so the page keeps its layout while it loads. They are
// hidden from assistive technology, which hears one "Loading…" status instead.

/** One grey shape; `className` gives its size. */
export function SkeletonBlock({ className }: { readonly className: string }) {
  return (
    <div
      aria-hidden="true"
      className={`bg-slate-200 motion-safe:animate-pulse ${className} dark:bg-slate-700`}
    />
  );
}

function LoadingStatus() {
  const { t } = useTranslation();
  return (
    <p role="status" className="sr-only">
      {t("app.loading")}
    </p>
  );
}

/** Lines of text to come. */
export function TextSkeleton({ lines = 3 }: { readonly lines?: number }) {
  return (
    <div className="flex flex-col gap-3">
      <LoadingStatus />
      {Array.from({ length: lines }, (_, index) => (
        // The last line is shorter, as the end of a paragraph is.
        <SkeletonBlock key={index} className={`h-4 rounded-md ${index === lines - 1 ? "w-2/3" : "w-full"}`} />
      ))}
    </div>
  );
}

/** Entries of a list to come, as cards. */
export function ListSkeleton({ rows = 3 }: { readonly rows?: number }) {
  return (
    <div className="flex flex-col gap-3">
      <LoadingStatus />
      {Array.from({ length: rows }, (_, index) => (
        <div
          key={index}
          aria-hidden="true"
          className="rounded-lg border border-slate-200 p-4 dark:border-slate-700"
        >
          <SkeletonBlock className="h-4 w-1/3 rounded-md" />
          <SkeletonBlock className="mt-3 h-3 w-3/4 rounded-md" />
        </div>
      ))}
    </div>
  );
}

/** A whole page to come: its heading, then text. */
export function PageSkeleton() {
  return (
    <div className="flex flex-col gap-6">
      <SkeletonBlock className="h-9 w-1/2 rounded-md" />
      <TextSkeleton lines={4} />
    </div>
  );
}
