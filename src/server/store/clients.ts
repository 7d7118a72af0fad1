import { inTransaction, type Database } from "./database.ts";
import { ShortCache } from "./short-cache.ts";

export interface ClientRow {
  id: string;
  organizationId: string;
  applicationId: string;
  kind: string;
  metadata: string;
  secretHash: string | null;
}

// Every token request looks its client up, usually the same few clients again and again; changes
// made through this server forget them at once.
const cachedClients = new ShortCache<ClientRow | undefined>(10_000);

/** This server just changed clients of the store: it reads them again at once. */
export const forgetClients = (db: Database) => cachedClients.forget(db);

export const findActiveClient = (db: Database, id: string): Promise<ClientRow | undefined> =>
  cachedClients.get(db, id, () => queryActiveClient(db, id));

async function queryActiveClient(db: Database, id: string): Promise<ClientRow | undefined> {
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

export interface SyncedClient {
  id: string;
  applicationId: string;
  kind: string;
  metadata: Record<string, unknown>;
  active: boolean;
}

/**
 * Stores the organization's clients as given and removes the ones no longer there. Secrets are
 * kept: they change only through {@link setClientSecretHash}.
 */
export async function syncOrganizationClients(
  db: Database,
  organizationId: string,
  clients: readonly SyncedClient[],
): Promise<void> {
  await inTransaction(db, async (trx) => {
    let removal = trx.deleteFrom("oauth_clients").where("organization_id", "=", organizationId);
    if (clients.length > 0)
      removal = removal.where(
        "id",
        "not in",
        clients.map((client) => client.id),
      );
    await removal.execute();
    for (const client of clients) {
      const values = {
        organization_id: organizationId,
        application_id: client.applicationId,
        kind: client.kind,
        metadata: JSON.stringify(client.metadata),
        active: client.active ? 1 : 0,
      };
      await trx
        .insertInto("oauth_clients")
        .values({ id: client.id, secret_hash: null, ...values })
        .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
        .execute();
    }
  });
  forgetClients(db);
}

export async function setClientSecretHash(db: Database, id: string, secretHash: string): Promise<void> {
  await db.updateTable("oauth_clients").set({ secret_hash: secretHash }).where("id", "=", id).execute();
  forgetClients(db);
}

/**
 * Whether the client, active or not, belongs to an organization that is disabled: what an app of a
 * disabled organization is told instead of "unknown client".
 */
export async function isClientOfDisabledOrganization(db: Database, clientId: string): Promise<boolean> {
  const row = await db
    .selectFrom("oauth_clients as client")
    .innerJoin("organizations as organization", "organization.id", "client.organization_id")
    .select("organization.document")
    .where("client.id", "=", clientId)
    .executeTakeFirst();
  return row !== undefined && (JSON.parse(row.document) as { active?: boolean }).active === false;
}

/** The distinct metadata of every client, active or not: what the longest token lifespans are read from. */
export async function everyClientMetadata(db: Database): Promise<string[]> {
  const rows = await db.selectFrom("oauth_clients").select("metadata").distinct().execute();
  return rows.map((row) => row.metadata);
}
