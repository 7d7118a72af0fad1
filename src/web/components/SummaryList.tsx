import { Link } from "react-router";
import { Labels } from "./Labels.tsx";

export interface Summary {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** The viewer administers it. */
  readonly canUpdate?: boolean;
}

/** Entries by name, each linking to its page, with its description under it. */
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
    <ul className="flex flex-col gap-2">
      {items.map((item) => (
        <li key={item.id} className="rounded-md border border-slate-200 px-4 py-3">
          <p className="font-medium break-words">
            <Link
              to={link(item.id)}
              className="text-blue-800 underline underline-offset-4 hover:text-blue-900"
            >
              {item.name}
            </Link>
            {labels && <Labels labels={labels(item)} />}
          </p>
          {item.description && (
            <p className="text-sm break-words whitespace-pre-wrap text-slate-700">{item.description}</p>
          )}
        </li>
      ))}
    </ul>
  );
}
