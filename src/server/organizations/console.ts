import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { settingOrCreate } from "../store/instance.ts";
import { insertOrganization, upsertClient } from "../store/organizations.ts";

export interface ConsoleClient {
  organizationId: string;
  applicationId: string;
  clientId: string;
  redirectUri: string;
}

/**
 * Makes sure the built-in "Vrata" organization and its "Console" application exist. Their IDs are
 * stored on first start and never regenerated, so sign-ins and tokens survive restarts; the redirect
 * URI follows the configured issuer.
 */
export async function ensureConsoleClient(db: Database, issuer: string): Promise<ConsoleClient> {
  const organizationId = await settingOrCreate(db, "consoleOrganizationId", newId);
  const applicationId = await settingOrCreate(db, "consoleApplicationId", newId);
  const clientId = await settingOrCreate(db, "consoleClientId", newId);
  const redirectUri = `${issuer}/`;

  await insertOrganization(
    db,
    organizationId,
    {
      name: "Vrata",
      description: "",
      admins: [],
      applications: [{ id: applicationId, name: "Console", active: true }],
    },
    Date.now(),
  );
  await upsertClient(db, {
    id: clientId,
    organizationId,
    applicationId,
    kind: "public",
    secretHash: null,
    metadata: JSON.stringify({
      client_name: "Console",
      client_uri: redirectUri,
      application_type: "web",
      redirect_uris: [redirectUri],
      post_logout_redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "openid profile email",
    }),
  });
  return { organizationId, applicationId, clientId, redirectUri };
}
