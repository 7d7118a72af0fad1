import type { AdapterPayload } from "oidc-provider";
import type { Database } from "../store/database.ts";
import { findActiveClient } from "../store/organizations.ts";

/** The oidc-provider metadata of an active organization application's client, if there is one. */
export async function findClientMetadata(
  db: Database,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  const client = await findActiveClient(db, clientId);
  if (!client) return undefined;
  return { ...(JSON.parse(client.metadata) as AdapterPayload), client_id: client.id };
}
