import { hash } from "node:crypto";
import type { PostgresDialect, PostgresPool } from "kysely";
import pg from "pg";
import { databaseConnectTimeoutMs } from "../../common/limits.ts";
import { isStoreUnavailable, StoreUnavailable } from "./errors.ts";
import { StorePostgresDialect } from "./postgres-introspection.ts";

// PostgreSQL returns bigint columns as strings; every bigint we store is a time or count well within
// Number's exact range.
type TypeParserLookup = pg.CustomTypesConfig["getTypeParser"];
const defaultTypeParser: TypeParserLookup = pg.types.getTypeParser;
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid, format) => {
    const parse: unknown = oid === pg.types.builtins.INT8 ? Number : defaultTypeParser(oid, format);
    return parse;
  }) as TypeParserLookup,
};

/** How many statements each connection keeps prepared; queries beyond them are parsed each time. */
const preparedPerConnection = 200;

/** A query that failed because the database is away fails as {@link StoreUnavailable}; others as they are. */
const asStoreError = (error: unknown) => (isStoreUnavailable(error) ? new StoreUnavailable(error) : error);

/**
 * Kysely sends the same SQL text for the same query shape. Each connection prepares a text the first
 * time it runs it (under a name made from the text) and then only binds new values: PostgreSQL no
 * longer parses and plans the queries every token request makes.
 */
function prepareRepeatedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  const names = new Set<string>();
  const named = (text: string, values: unknown[]) => {
    const name = `vrata_${hash("sha256", text, "base64url").slice(0, 24)}`;
    if (!names.has(name)) {
      if (names.size >= preparedPerConnection) return query({ text, values });
      names.add(name);
    }
    return query({ name, text, values });
  };
  Object.assign(client, {
    query: (...args: unknown[]) => {
      const [text, values] = args;
      const running =
        args.length === 2 && typeof text === "string" && Array.isArray(values) && values.length > 0
          ? named(text, values)
          : query(...args);
      return running.catch((error: unknown) => {
        throw asStoreError(error);
      });
    },
  });
}

export interface PostgresOptions {
  url: string;
  schema?: string | undefined;
  /** A connection ended by the database (a restart, `pg_terminate_backend`): the pool has let it go. */
  onConnectionLost: (error: Error) => void;
}

/**
 * PostgreSQL through a pool that outlives the database going away: a connection the database ends is
 * dropped and reported (an `error` event nobody listens for would end the process), a request that
 * meets the outage fails with {@link StoreUnavailable}, and the next one opens a new connection.
 */
export function postgresDialect({ url, schema, onConnectionLost }: PostgresOptions): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    types: pgTypes,
    max: 10,
    connectionTimeoutMillis: databaseConnectTimeoutMs,
    // A peer that vanished without closing (a host down, a dropped route) is noticed on idle connections too.
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // Each connection reports its own end, idle or in use (between two statements of a transaction,
  // whose next statement then fails). The pool passes an idle one's on as well: heard once is enough.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => {
    client.on("error", onConnectionLost);
    prepareRepeatedStatements(client);
  });
  const connections: PostgresPool = {
    connect: () =>
      pool.connect().catch((error: unknown) => {
        throw asStoreError(error);
      }),
    end: () => pool.end(),
    options: pool.options,
  };
  return new StorePostgresDialect({ pool: connections }, schema);
}
