import type { Database } from "./database.ts";

// Versioned JSON documents (application templates, organizations): read, created, and replaced only
// when the caller saw the latest version, so no edit is silently lost (design.md §4).

export type DocumentTableName = "application_templates" | "organizations";

export interface StoredDocument<T> {
  id: string;
  version: number;
  document: T;
}

export async function findDocument<T>(
  db: Database,
  table: DocumentTableName,
  id: string,
): Promise<StoredDocument<T> | undefined> {
  const row = await db
    .selectFrom(table)
    .select(["id", "version", "document"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && { id: row.id, version: row.version, document: JSON.parse(row.document) as T };
}

/** The documents with the given IDs that exist, in one query. */
export async function findDocuments<T>(
  db: Database,
  table: DocumentTableName,
  ids: readonly string[],
): Promise<StoredDocument<T>[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom(table)
    .select(["id", "version", "document"])
    .where("id", "in", ids)
    .execute();
  return rows.map((row) => ({ id: row.id, version: row.version, document: JSON.parse(row.document) as T }));
}

/** All documents of a table, newest first. */
export async function listDocuments<T>(db: Database, table: DocumentTableName): Promise<StoredDocument<T>[]> {
  const rows = await db
    .selectFrom(table)
    .select(["id", "version", "document"])
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ id: row.id, version: row.version, document: JSON.parse(row.document) as T }));
}

export async function insertDocument(
  db: Database,
  table: DocumentTableName,
  id: string,
  document: unknown,
  now: number,
): Promise<void> {
  await db
    .insertInto(table)
    .values({ id, version: 1, document: JSON.stringify(document), created_at: now, updated_at: now })
    .execute();
}

/** Replaces the document if it is still at `version`; false when someone saved in between. */
export async function replaceDocument(
  db: Database,
  table: DocumentTableName,
  id: string,
  version: number,
  document: unknown,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({ document: JSON.stringify(document), version: version + 1, updated_at: now })
    .where("id", "=", id)
    .where("version", "=", version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The IDs of the organizations with an application of the template: the documents are searched for
 * the template's ID as stored JSON writes it, rather than each one read.
 */
export async function organizationIdsWithTemplate(db: Database, templateId: string): Promise<string[]> {
  // Vrata's IDs are base58: no character in them is special to LIKE.
  const rows = await db
    .selectFrom("organizations")
    .select("id")
    .where("document", "like", `%"templateId":${JSON.stringify(templateId)}%`)
    .orderBy("id")
    .execute();
  return rows.map((row) => row.id);
}
