import type { OrganizationApplication } from "../../common/api/organization.ts";
import { consoleScope } from "../../common/limits.ts";
import { signInSettingDefaults } from "../../common/api/template.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { findDocument, insertDocument } from "../store/documents.ts";
import { settingOrCreate } from "../store/instance.ts";
import { syncClients } from "./clients.ts";
import { findOrganization, type OrganizationDocument } from "../access/organizations.ts";

export interface ConsoleClient {
  organizationId: string;
  applicationId: string;
  clientId: string;
  redirectUri: string;
}

const day = 24 * 60 * 60;

/** The console as an application of the built-in organization, made from an inline template. */
function consoleApplication(
  applicationId: string,
  clientId: string,
  issuer: string,
): OrganizationApplication {
  return {
    id: applicationId,
    active: true,
    templateId: "",
    applicationTemplate: {
      name: "Console",
      description: "",
      homepageTemplate: "{uriBase}/",
      idScopes: consoleScope.split(" "),
      appScopes: [],
      variables: [{ name: "uriBase", description: "" }],
      clientsPublic: [
        {
          id: "console",
          description: "",
          additionalScopes: [],
          accessTokenType: "hmac",
          accessTokenLifespan: 3600,
          idTokenLifespan: 3600,
          refreshTokenLifespan: 30 * day,
          redirectUriTemplates: ["{uriBase}/"],
          ...signInSettingDefaults,
        },
      ],
      clientsBackend: [],
      clientsService: [],
    },
    values: [{ name: "uriBase", value: issuer }],
    clientsPublic: [{ id: clientId, templateClientId: "console" }],
    clientsBackend: [],
    clientsService: [],
  };
}

/**
 * Makes sure the built-in "Vrata" organization and its "Console" application exist. Their IDs are
 * stored on first start and never regenerated, so sign-ins and tokens survive restarts; the
 * console's address follows the configured issuer.
 */
export async function ensureConsoleClient(db: Database, issuer: string): Promise<ConsoleClient> {
  const organizationId = await settingOrCreate(db, "consoleOrganizationId", newId);
  const applicationId = await settingOrCreate(db, "consoleApplicationId", newId);
  const clientId = await settingOrCreate(db, "consoleClientId", newId);
  const application = consoleApplication(applicationId, clientId, issuer);

  const stored = await findOrganization(db, organizationId);
  if (!stored) {
    const document: OrganizationDocument = {
      name: "Vrata",
      description: "",
      admins: [],
      applications: [application],
    };
    // Another instance starting at the same moment may have stored it first; any other failure stands.
    await insertDocument(db, "organizations", organizationId, document, Date.now()).catch(
      async (error: unknown) => {
        if (!(await findDocument(db, "organizations", organizationId))) throw error;
      },
    );
  }
  const others = stored?.document.applications.filter((candidate) => candidate.id !== applicationId) ?? [];
  await syncClients(db, organizationId, [application, ...others]);
  return { organizationId, applicationId, clientId, redirectUri: `${issuer}/` };
}
