import type { AdapterPayload, Client } from "oidc-provider";
import type Provider from "oidc-provider";
import { idPattern } from "../../common/ids.ts";
import { pathFor } from "../../common/routes.ts";
import { tryClientKind } from "../organizations/try-client.ts";
import type { Database } from "../store/database.ts";
import { findActiveClient, type ClientRow } from "../store/clients.ts";

/**
 * The engine's metadata of each client row, made once per row and issuer (rows are cached for a
 * moment; a test client's redirect URI is on the issuer's origin).
 */
const metadataOfRow = new WeakMap<ClientRow, Map<string, AdapterPayload | undefined>>();

function engineMetadata(client: ClientRow, issuer: string): AdapterPayload | undefined {
  const metadata = {
    ...(JSON.parse(client.metadata) as AdapterPayload),
    client_id: client.id,
    vrata_organization_id: client.organizationId,
    vrata_application_id: client.applicationId,
    // Every ID token says when the person proved who they are (spec §3), asked for or not.
    require_auth_time: true,
  };
  if (client.kind === "public") return metadata;
  if (client.kind === tryClientKind) {
    const page = pathFor("OrganizationAppTry", { id: client.organizationId, appId: client.applicationId });
    return { ...metadata, redirect_uris: [issuer + page] };
  }
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
  issuer: string,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  // A client_id of another shape names no client (the engine answers invalid_client) and never
  // reaches a query.
  if (!idPattern.test(clientId)) return undefined;
  const client = await findActiveClient(db, clientId);
  if (!client) return undefined;
  const ofIssuer = metadataOfRow.get(client) ?? new Map<string, AdapterPayload | undefined>();
  metadataOfRow.set(client, ofIssuer);
  if (!ofIssuer.has(issuer)) ofIssuer.set(issuer, engineMetadata(client, issuer));
  return ofIssuer.get(issuer);
}

/**
 * The engine makes a client object from the metadata on every lookup, finding an earlier one by a hash
 * of the metadata's JSON, among the last 100 only. Vrata keeps each client object for as long as the
 * row it was made from is cached, and skips the hashing.
 */
export function keepEngineClients(provider: Provider, db: Database): void {
  const engineFind = provider.Client.find.bind(provider.Client);
  const clients = new WeakMap<AdapterPayload, Client>();
  provider.Client.find = async (id: string) => {
    // The engine passes on whatever a request said, a missing or repeated client_id included.
    if (typeof id !== "string") return undefined;
    const metadata = await findClientMetadata(db, provider.issuer, id);
    if (!metadata) return undefined;
    const known = clients.get(metadata);
    if (known) return known;
    const client = await engineFind(id);
    // A person's subject is the identity they chose for the client's app (oidc/accounts.ts). The
    // engine's own rule for pairwise subjects (one host of redirect URIs, else a sector identifier
    // URI) is about subjects made per host; Vrata's are made per organization, so it is not applied.
    if (client?.responseTypes?.length) (client as { subjectType: string }).subjectType = "pairwise";
    // Kept only if the row did not change while the engine made the client.
    if (client && (await findClientMetadata(db, provider.issuer, id)) === metadata)
      clients.set(metadata, client);
    return client;
  };
}
