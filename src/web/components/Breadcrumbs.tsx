import { useTranslation } from "../i18n/index.ts";
import { Link } from "react-router";
import { ChevronRightIcon } from "./icons.tsx";

export interface Crumb {
  readonly label: string;
  readonly to: string;
}

/** Where a page sits: the pages above it, each a link, then the page itself. */
export function Breadcrumbs({
  trail,
  current,
}: {
  readonly trail: readonly Crumb[];
  readonly current: string;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("nav.breadcrumbs")}>
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
        {trail.map((crumb) => (
          <li key={crumb.to} className="flex min-w-0 items-center gap-1">
            <Link
              to={crumb.to}
              className="break-words text-blue-800 underline-offset-4 hover:text-blue-900 hover:underline dark:text-blue-300 dark:hover:text-blue-100"
            >
              {crumb.label}
            </Link>
            <ChevronRightIcon className="size-4 text-slate-500 dark:text-slate-400" />
          </li>
        ))}
        <li
          aria-current="page"
          className="min-w-0 font-medium break-words text-slate-800 dark:text-slate-200"
        >
          {current}
        </li>
      </ol>
    </nav>
  );
}
