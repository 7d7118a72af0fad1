import type { Database } from "../store/database.ts";
import { homepageOf } from "./clients.ts";
import { findOrganization } from "./organizations.ts";

export interface ApplicationInfo {
  name: string;
  organizationName: string;
  homepage?: string;
}

/** What the flow page tells about the app asking for a sign-in, and where its homepage is. */
export async function applicationOf(
  db: Database,
  organizationId: string,
  applicationId: string,
): Promise<ApplicationInfo> {
  const organization = await findOrganization(db, organizationId);
  const application = organization?.document.applications.find((candidate) => candidate.id === applicationId);
  const homepage = application && homepageOf(application);
  return {
    name: application?.applicationTemplate.name ?? "",
    organizationName: organization?.document.name ?? "",
    ...(homepage ? { homepage } : {}),
  };
}
