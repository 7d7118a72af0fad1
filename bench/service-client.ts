import type { OrganizationApplication } from "../src/common/api/organization.ts";
import { newId } from "../src/server/ids.ts";
import { syncClients } from "../src/server/organizations/clients.ts";
import type { OrganizationDocument } from "../src/server/organizations/organizations.ts";
import { hashClientSecret, newClientSecret } from "../src/server/organizations/secrets.ts";
import { setClientSecretHash } from "../src/server/store/clients.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { insertDocument } from "../src/server/store/documents.ts";

/**
 * Adds an organization with one service client to a prepared data folder, stored exactly as the
 * organizations console stores one (hashed secret), and returns its credentials.
 */
export async function addServiceClient(databaseFile: string): Promise<{ clientId: string; secret: string }> {
  const db = openDatabase({ database: { kind: "sqlite", file: databaseFile } });
  try {
    const clientId = newId();
    const secret = newClientSecret();
    const application: OrganizationApplication = {
      id: newId(),
      active: true,
      templateId: newId(),
      applicationTemplate: {
        name: "Benchmark",
        description: "",
        homepageTemplate: "",
        idScopes: ["openid"],
        variables: [],
        clientsPublic: [],
        clientsBackend: [],
        clientsService: [
          {
            id: "service",
            description: "",
            additionalScopes: [],
            accessTokenType: "hmac",
            accessTokenLifespan: 3600,
            idTokenLifespan: 3600,
            tokenEndpointAuthMethod: "client_secret_basic",
          },
        ],
      },
      values: [],
      clientsPublic: [],
      clientsBackend: [],
      clientsService: [{ id: clientId, templateClientId: "service" }],
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
    await setClientSecretHash(db, clientId, hashClientSecret(secret));
    return { clientId, secret };
  } finally {
    await db.destroy();
  }
}
