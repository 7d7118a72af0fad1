import type { OrganizationApplication } from "../src/common/api/organization.ts";
import { signInSettingDefaults } from "../src/common/api/template.ts";
import type { Config } from "../src/server/config.ts";
import { newId } from "../src/server/ids.ts";
import { syncClients } from "../src/server/organizations/clients.ts";
import type { OrganizationDocument } from "../src/server/organizations/organizations.ts";
import { hashClientSecret, newClientSecret } from "../src/server/organizations/secrets.ts";
import { setClientSecretHash } from "../src/server/store/clients.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { insertDocument } from "../src/server/store/documents.ts";

export interface BenchClients {
  /** A service client with a hashed secret, for client_credentials and introspection. */
  service: { clientId: string; secret: string };
  /** A public client (PKCE, no secret) that people sign in to, for the code flow and refresh. */
  person: { clientId: string; redirectUri: string };
}

const redirectUri = "https://app.example/callback";
const lifespans = { accessTokenType: "hmac", accessTokenLifespan: 3600, idTokenLifespan: 3600 } as const;

/**
 * Adds an organization with one app holding a public and a service client to Vrata's prepared
 * database (SQLite file or PostgreSQL), stored exactly as the organizations console stores them.
 */
export async function addBenchClients(database: Config["database"]): Promise<BenchClients> {
  const db = await openDatabase({ database });
  try {
    const serviceId = newId();
    const publicId = newId();
    const secret = newClientSecret();
    const application: OrganizationApplication = {
      id: newId(),
      active: true,
      templateId: newId(),
      applicationTemplate: {
        name: "Benchmark",
        description: "",
        homepageTemplate: "",
        // offline_access lets the public client get refresh tokens, as a real app's template would.
        idScopes: ["openid", "profile", "email", "offline_access"],
        appScopes: [],
        variables: [],
        clientsPublic: [
          {
            id: "web",
            description: "",
            additionalScopes: [],
            redirectUriTemplates: [redirectUri],
            ...signInSettingDefaults,
            ...lifespans,
          },
        ],
        clientsBackend: [],
        clientsService: [
          {
            id: "service",
            description: "",
            additionalScopes: [],
            tokenEndpointAuthMethod: "client_secret_basic",
            ...lifespans,
          },
        ],
      },
      values: [],
      clientsPublic: [{ id: publicId, templateClientId: "web" }],
      clientsBackend: [],
      clientsService: [{ id: serviceId, templateClientId: "service" }],
    };
    const organizationId = newId();
    const document: OrganizationDocument = {
      name: "Benchmark",
      description: "",
      admins: [],
      applications: [application],
    };
    await insertDocument(db, "organizations", organizationId, document, Date.now());
    await syncClients(db, organizationId, [application]);
    await setClientSecretHash(db, serviceId, hashClientSecret(secret));
    return { service: { clientId: serviceId, secret }, person: { clientId: publicId, redirectUri } };
  } finally {
    await db.destroy();
  }
}
