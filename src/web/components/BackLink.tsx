import type { ReactNode } from "react";
import { Link } from "react-router";

/** The link above a page's heading up to the page it belongs to (an entry's list). */
export function BackLink({ to, children }: { readonly to: string; readonly children: ReactNode }) {
  return (
    <p>
      <Link to={to} className="text-blue-800 underline underline-offset-4 hover:text-blue-900">
        {children}
      </Link>
    </p>
  );
}
