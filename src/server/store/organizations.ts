import type { Database } from "./database.ts";

export interface ClientRow {
  id: string;
  organizationId: string;
  applicationId: string;
  kind: string;
  metadata: string;
  secretHash: string | null;
}

export async function findActiveClient(db: Database, id: string): Promise<ClientRow | undefined> {
  const row = await db
    .selectFrom("oauth_clients")
    .select(["id", "organization_id", "application_id", "kind", "metadata", "secret_hash"])
    .where("id", "=", id)
    .where("active", "=", 1)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      organizationId: row.organization_id,
      applicationId: row.application_id,
      kind: row.kind,
      metadata: row.metadata,
      secretHash: row.secret_hash,
    }
  );
}

export async function organizationExists(db: Database, id: string): Promise<boolean> {
  const row = await db.selectFrom("organizations").select("id").where("id", "=", id).executeTakeFirst();
  return row !== undefined;
}

export async function insertOrganization(
  db: Database,
  id: string,
  document: unknown,
  now: number,
): Promise<void> {
  await db
    .insertInto("organizations")
    .values({ id, version: 1, document: JSON.stringify(document), created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
}

/** Stores a client's metadata, replacing what an earlier start stored under the same ID. */
export async function upsertClient(db: Database, client: ClientRow): Promise<void> {
  const values = {
    organization_id: client.organizationId,
    application_id: client.applicationId,
    kind: client.kind,
    metadata: client.metadata,
    secret_hash: client.secretHash,
    active: 1,
  };
  await db
    .insertInto("oauth_clients")
    .values({ id: client.id, ...values })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
    .execute();
}
