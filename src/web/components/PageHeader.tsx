import type { ReactNode } from "react";
import { Link } from "react-router";
import { PlusIcon } from "./icons.tsx";

/** The top of a list page: its title, a line about it, and its primary action on the right. */
export function PageHeader({
  title,
  description,
  action,
}: {
  readonly title: string;
  readonly description?: string | undefined;
  readonly action?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0 flex-1 basis-72">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {description && <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">{description}</p>}
      </div>
      {action}
    </div>
  );
}

/** The primary "Create …" action of a list page: a link to its create page that looks like a button. */
export function CreateLink({ to, children }: { readonly to: string; readonly children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-2 rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-800 dark:bg-blue-600 dark:hover:bg-blue-700"
    >
      <PlusIcon />
      {children}
    </Link>
  );
}
