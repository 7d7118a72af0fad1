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
  await db.transaction().execute(async (trx) => {
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
}

export async function setClientSecretHash(db: Database, id: string, secretHash: string): Promise<void> {
  await db.updateTable("oauth_clients").set({ secret_hash: secretHash }).where("id", "=", id).execute();
}
