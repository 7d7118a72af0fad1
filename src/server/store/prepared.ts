import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import type { Database } from "./database.ts";
import type { DirectRunner } from "./sqlite.ts";
import { statementOf, storeQueries } from "../operations/metrics.ts";

// Building and compiling a query with Kysely costs more than SQLite takes to answer a primary-key
// lookup. The queries every token request runs are therefore built once per database, with stand-ins
// for their arguments, and then run with each call's values in the stand-ins' places.

type Argument = string | number | null;

/** What a compiled parameter holds: the call's argument at this index, or a value fixed in the query. */
type ParameterSource = { argument: number } | { fixed: unknown };

interface Prepared {
  compiled: CompiledQuery;
  sources: ParameterSource[];
  /** The statement's kind for the latency metric, read from its SQL once. */
  statement: string;
}

const standInPrefix = "\u0000prepared-argument-";

const directRunners = new WeakMap<Database, DirectRunner>();

/**
 * Prepared queries on `db` go to `runner` first, and through Kysely when it declines. A query the
 * runner answers does not wait behind Kysely queries still queued for the connection; callers await
 * each query, so none depends on that order. Kysely plugins and query logging do not see them.
 */
export function runDirectly(db: Database, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

/**
 * A query built by `build` from its arguments, compiled once for each database it runs on. Every
 * argument must end up as a parameter of the query (a value compared or written), never as a column
 * name or a list whose length varies: those are fixed when the query is built.
 */
export function preparedQuery<Args extends Argument[], Row>(
  build: (db: Database, ...args: Args) => Compilable<Row>,
): (db: Database, ...args: Args) => Promise<QueryResult<Row>> {
  const byDatabase = new WeakMap<Database, Prepared>();
  const prepare = (db: Database, argumentCount: number): Prepared => {
    const standIns = Array.from({ length: argumentCount }, (_, index) => standInPrefix + String(index));
    const compiled = build(db, ...(standIns as Args)).compile();
    const sources = compiled.parameters.map((value): ParameterSource => {
      const index = standIns.indexOf(value as string);
      return index >= 0 ? { argument: index } : { fixed: value };
    });
    for (let index = 0; index < argumentCount; index++) {
      if (!sources.some((source) => "argument" in source && source.argument === index)) {
        throw new Error(`argument ${index} of a prepared query is not one of its parameters`);
      }
    }
    return { compiled, sources, statement: statementOf(compiled.sql) };
  };
  return async (db, ...args) => {
    let prepared = byDatabase.get(db);
    if (!prepared) {
      prepared = prepare(db, args.length);
      byDatabase.set(db, prepared);
    }
    const parameters = prepared.sources.map((source) =>
      "argument" in source ? args[source.argument] : source.fixed,
    );
    const query = { ...prepared.compiled, parameters };
    // The runner returns the rows the query was built to select. Queries it runs bypass Kysely, and
    // with it the store's latency metric: they are timed here.
    const started = performance.now();
    const direct = directRunners.get(db)?.(query) as QueryResult<Row> | undefined;
    if (!direct) return db.executeQuery<Row>(query);
    storeQueries.observe({ statement: prepared.statement }, (performance.now() - started) / 1000);
    return direct;
  };
}
