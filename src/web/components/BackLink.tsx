import type { ReactNode } from "react";
import { Link } from "react-router";
import { ChevronLeftIcon } from "./icons.tsx";

/** The link above a page's heading up to the page it belongs to (an entry's list). */
export function BackLink({ to, children }: { readonly to: string; readonly children: ReactNode }) {
  return (
    <p>
      <Link
        to={to}
        className="inline-flex items-center gap-1 text-sm font-medium text-blue-800 underline-offset-4 hover:text-blue-900 hover:underline"
      >
        <ChevronLeftIcon />
        {children}
      </Link>
    </p>
  );
}
