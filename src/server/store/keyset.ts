import { sql, type RawBuilder } from "kysely";

/** Where a page of a newest-first list ends: the time and ID of its last row. */
export interface Position {
  createdAt: number;
  id: string;
}

/**
 * The rows after `position` in newest-first order of (`createdAt`, `id`) columns. The plain bound on
 * the time is what lets an index ending in those columns start its scan at the position, on both
 * engines: without it the condition is only a filter and a page deep in a list reads every row before
 * it. The rest drops the rows of the position's own millisecond that were listed already.
 */
export function olderThan(position: Position, createdAt: string, id: string): RawBuilder<boolean> {
  const time = sql.ref(createdAt);
  return sql<boolean>`${time} <= ${position.createdAt} and (${time} < ${position.createdAt} or ${sql.ref(id)} < ${position.id})`;
}
