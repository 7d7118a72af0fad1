import type { ReactNode } from "react";

/** A list of {@link CardItem}s. */
export function CardList({ children }: { readonly children: ReactNode }) {
  return <ul className="flex flex-col gap-2">{children}</ul>;
}

/**
 * An entry of a list shown as a card: what it is on the left, its actions on the right, wrapping
 * under it on narrow screens.
 */
export function CardItem({
  children,
  actions,
}: {
  readonly children: ReactNode;
  readonly actions?: ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-3 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="min-w-0 flex-1 basis-64">{children}</div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </li>
  );
}
