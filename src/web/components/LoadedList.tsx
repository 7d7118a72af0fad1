import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { QueryError } from "./QueryError.tsx";
import { ListSkeleton } from "./Skeleton.tsx";

/** A list from the server: why it could not be loaded, what is said when it is empty, or its items. */
export function LoadedList<T>({
  query,
  empty,
  children,
}: {
  readonly query: UseQueryResult<readonly T[]>;
  readonly empty: string;
  readonly children: (items: readonly T[]) => ReactNode;
}) {
  if (query.isError) return <QueryError error={query.error} />;
  if (!query.data) return <ListSkeleton rows={2} />;
  if (query.data.length === 0) return <p className="text-slate-700 dark:text-slate-300">{empty}</p>;
  return children(query.data);
}
