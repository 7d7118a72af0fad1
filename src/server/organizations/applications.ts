import type { Database } from "../store/database.ts";
import { findActiveClient } from "../store/organizations.ts";

export interface ApplicationInfo {
  name: string;
  organizationName: string;
  homepage?: string;
}

interface OrganizationDocument {
  name?: string;
  applications?: { id: string; name?: string }[];
}

/** What the flow page tells about the app asking for a sign-in, and where its homepage is. */
export async function applicationOf(
  db: Database,
  organizationId: string,
  applicationId: string,
  clientId: string,
): Promise<ApplicationInfo> {
  const organization = await db
    .selectFrom("organizations")
    .select("document")
    .where("id", "=", organizationId)
    .executeTakeFirst();
  const document = organization ? (JSON.parse(organization.document) as OrganizationDocument) : {};
  const client = await findActiveClient(db, clientId);
  const metadata = client ? (JSON.parse(client.metadata) as { client_uri?: string }) : {};
  const application = document.applications?.find((candidate) => candidate.id === applicationId);
  return {
    name: application?.name ?? "",
    organizationName: document.name ?? "",
    ...(metadata.client_uri ? { homepage: metadata.client_uri } : {}),
  };
}
