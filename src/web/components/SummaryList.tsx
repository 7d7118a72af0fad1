import { Link } from "react-router";
import { Labels } from "./Labels.tsx";

export interface Summary {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** The viewer administers it. */
  readonly canUpdate?: boolean;
}

/** Entries as cards, by name, each linking to its page, with its description under it. */
export function SummaryList({
  items,
  link,
  labels,
}: {
  readonly items: readonly Summary[];
  readonly link: (id: string) => string;
  readonly labels?: ((item: Summary) => string[]) | undefined;
}) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {items.map((item) => (
        <li
          key={item.id}
          className="relative flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-blue-300 hover:shadow dark:border-slate-700 dark:bg-slate-900 dark:hover:border-blue-700"
        >
          <p className="font-semibold break-words">
            {/* The link covers the whole card, but its name is only the entry's name. */}
            <Link
              to={link(item.id)}
              className="text-blue-800 underline underline-offset-4 after:absolute after:inset-0 after:rounded-lg hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
            >
              {item.name}
            </Link>
            {labels && <Labels labels={labels(item)} />}
          </p>
          {item.description && (
            <p className="line-clamp-3 text-sm break-words whitespace-pre-wrap text-slate-700 dark:text-slate-300">
              {item.description}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
