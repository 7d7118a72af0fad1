import { newId } from "../../src/server/ids.ts";
import type { Database } from "../../src/server/store/database.ts";
import { insertOrganization, upsertClient } from "../../src/server/store/organizations.ts";

export interface TestApp {
  organizationId: string;
  applicationId: string;
  clientId: string;
  redirectUri: string;
}

/** An organization with one app whose public client a test drives like a real relying party would. */
export async function registerTestApp(db: Database, name = "Test app"): Promise<TestApp> {
  const organizationId = newId();
  const applicationId = newId();
  const clientId = newId();
  const redirectUri = "https://app.example/callback";
  await insertOrganization(
    db,
    organizationId,
    { name: `${name} organization`, applications: [{ id: applicationId, name }] },
    Date.now(),
  );
  await upsertClient(db, {
    id: clientId,
    organizationId,
    applicationId,
    kind: "public",
    secretHash: null,
    metadata: JSON.stringify({
      client_uri: "https://app.example/",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  return { organizationId, applicationId, clientId, redirectUri };
}
