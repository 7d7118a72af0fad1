import type { AdapterPayload } from "oidc-provider";
import type { Database } from "../store/database.ts";
import { findActiveClient, type ClientRow } from "../store/clients.ts";

/** The engine's metadata of each client row, made once per row (rows are cached for a moment). */
const metadataOfRow = new WeakMap<ClientRow, AdapterPayload | undefined>();

function engineMetadata(client: ClientRow): AdapterPayload | undefined {
  const metadata = {
    ...(JSON.parse(client.metadata) as AdapterPayload),
    client_id: client.id,
    vrata_organization_id: client.organizationId,
    vrata_application_id: client.applicationId,
  };
  if (client.kind === "public") return metadata;
  // A confidential client without a secret cannot authenticate, so it does not exist for the engine.
  if (client.secretHash === null) return undefined;
  return { ...metadata, client_secret: client.secretHash };
}

/**
 * The oidc-provider metadata of an active organization application's client, if there is one. A
 * confidential client's `client_secret` is the secret's hash: the engine compares presented secrets
 * through `compareClientSecret`, which Vrata replaces with a hash comparison.
 */
export async function findClientMetadata(
  db: Database,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  const client = await findActiveClient(db, clientId);
  if (!client) return undefined;
  if (!metadataOfRow.has(client)) metadataOfRow.set(client, engineMetadata(client));
  return metadataOfRow.get(client);
}
