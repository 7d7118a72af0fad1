import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from "kysely";
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from "kysely/migration";

// The migrator asks whether its own tables exist. Kysely's PostgreSQL answer lists the columns of every
// table in every schema and looks each table up by name as it goes: a table that another instance's
// or store's migration drops or renames meanwhile fails the question ("relation … does not exist").
// Here the answer is the store's own schema's tables, read from the catalog's rows alone.

/** The tables of one schema (the connection's current one when none is named), without their columns. */
class StoreSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schema: string | undefined;

  constructor(db: Kysely<unknown>, schema: string | undefined) {
    this.#db = db;
    this.#schema = schema;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`SELECT nspname AS name FROM pg_catalog.pg_namespace`.execute(
      this.#db,
    );
    return rows;
  }

  async getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    const internal = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE];
    const schema = this.#schema === undefined ? sql`current_schema()` : sql`${this.#schema}`;
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      SELECT c.relname AS name, n.nspname AS schema, c.relkind AS kind
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`.execute(this.#db);
    const listed = options?.withInternalKyselyTables
      ? rows
      : rows.filter((row) => !internal.includes(row.name));
    return listed.map(({ name, schema, kind }) => ({
      name,
      schema,
      isView: kind === "v" || kind === "m",
      isForeign: kind === "f",
      columns: [],
    }));
  }
}

/** Kysely's PostgreSQL dialect, introspecting only the store's schema. */
export class StorePostgresDialect extends PostgresDialect {
  readonly #schema: string | undefined;

  constructor(config: PostgresDialectConfig, schema: string | undefined) {
    super(config);
    this.#schema = schema;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new StoreSchemaIntrospector(db, this.#schema);
  }
}
