import type { ComponentType, ReactNode } from "react";

/** What an empty list says instead: an icon, what is missing, and what to do about it. */
export function EmptyState({
  icon: Icon,
  message,
  action,
}: {
  readonly icon: ComponentType<{ className?: string }>;
  readonly message: string;
  /** The button or link that makes the first entry (or signs in to). */
  readonly action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-slate-300 bg-slate-50 px-6 py-10 text-center dark:border-slate-600 dark:bg-slate-900">
      <span className="rounded-full bg-white p-3 text-blue-800 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:text-blue-300 dark:ring-slate-700">
        <Icon className="size-6" />
      </span>
      <p className="max-w-md text-slate-700 dark:text-slate-300">{message}</p>
      {action}
    </div>
  );
}
