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

export function postgresDialect(url: string, schema: string | undefined): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: url,
    types: pgTypes,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new PostgresDialect({ pool });
}
