import { hash } from "node:crypto";
import { PostgresDialect } from "kysely";
import pg from "pg";

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
      return args.length === 2 && typeof text === "string" && Array.isArray(values) && values.length > 0
        ? named(text, values)
        : query(...args);
    },
  });
}

export function postgresDialect(url: string, schema: string | undefined): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    types: pgTypes,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on("connect", prepareRepeatedStatements);
  return new PostgresDialect({ pool });
}
