import type { OrganizationApplication } from "../../src/common/api/organization.ts";
import { signInSettingDefaults, type PublicClient } from "../../src/common/api/template.ts";
import { newId } from "../../src/server/ids.ts";
import { syncClients } from "../../src/server/organizations/clients.ts";
import type { OrganizationDocument } from "../../src/server/organizations/organizations.ts";
import type { Database } from "../../src/server/store/database.ts";
import { insertDocument } from "../../src/server/store/documents.ts";

export interface TestApp {
  organizationId: string;
  applicationId: string;
  clientId: string;
  redirectUri: string;
}

/**
 * An organization with one app whose public client a test drives like a real relying party would,
 * stored the way the organizations console stores it.
 */
export async function registerTestApp(
  db: Database,
  name = "Test app",
  /** The public client's token settings, where they differ from opaque access tokens living an hour. */
  tokens: Partial<Pick<PublicClient, "accessTokenType" | "accessTokenLifespan" | "idTokenLifespan">> = {},
): Promise<TestApp> {
  const organizationId = newId();
  const clientId = newId();
  const redirectUri = "https://app.example/callback";
  const application: OrganizationApplication = {
    id: newId(),
    active: true,
    templateId: newId(),
    applicationTemplate: {
      name,
      description: "",
      homepageTemplate: "{uriBase}/",
      idScopes: ["openid", "profile", "email", "offline_access"],
      appScopes: [],
      variables: [{ name: "uriBase", description: "" }],
      clientsPublic: [
        {
          id: "web",
          description: "",
          additionalScopes: [],
          accessTokenType: "hmac",
          accessTokenLifespan: 3600,
          idTokenLifespan: 3600,
          redirectUriTemplates: ["{uriBase}/callback"],
          ...signInSettingDefaults,
          ...tokens,
        },
      ],
      clientsBackend: [],
      clientsService: [],
    },
    values: [{ name: "uriBase", value: "https://app.example" }],
    clientsPublic: [{ id: clientId, templateClientId: "web" }],
    clientsBackend: [],
    clientsService: [],
  };
  const document: OrganizationDocument = {
    name: `${name} organization`,
    description: "",
    admins: [],
    applications: [application],
  };
  await insertDocument(db, "organizations", organizationId, document, Date.now());
  await syncClients(db, organizationId, [application]);
  return { organizationId, applicationId: application.id, clientId, redirectUri };
}
