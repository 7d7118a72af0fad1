import type { OrganizationApplication } from "../../common/api/organization.ts";
import { accountPageScope, consoleScope } from "../../common/limits.ts";
import { signInSettingDefaults } from "../../common/api/template.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { findDocument, insertDocument, replaceDocument } from "../store/documents.ts";
import { settingOrCreate } from "../store/instance.ts";
import { syncClients } from "./clients.ts";
import { findOrganization, type OrganizationDocument } from "../access/organizations.ts";

/** A built-in application's public client. */
export interface BuiltInClient {
  applicationId: string;
  clientId: string;
  redirectUri: string;
}

export interface ConsoleClient extends BuiltInClient {
  organizationId: string;
  /** The account page's own client: its sign-ins are the account's, with no identity chosen. */
  account: BuiltInClient;
}

const day = 24 * 60 * 60;

interface BuiltInApplication {
  name: string;
  /** The client's ID in the inline template, which also tells the built-in applications apart. */
  templateClientId: string;
  /** Where the client's sign-ins come back to, under the issuer. */
  path: string;
  scope: string;
}

const consoleApplicationKind: BuiltInApplication = {
  name: "Console",
  templateClientId: "console",
  path: "/",
  scope: consoleScope,
};

const accountApplicationKind: BuiltInApplication = {
  name: "Account",
  templateClientId: "account",
  path: "/account",
  scope: accountPageScope,
};

/** A built-in application of the built-in organization, made from an inline template. */
function builtInApplication(
  kind: BuiltInApplication,
  applicationId: string,
  clientId: string,
  issuer: string,
): OrganizationApplication {
  return {
    id: applicationId,
    active: true,
    templateId: "",
    applicationTemplate: {
      name: kind.name,
      description: "",
      homepageTemplate: `{uriBase}${kind.path}`,
      idScopes: kind.scope.split(" "),
      appScopes: [],
      variables: [{ name: "uriBase", description: "" }],
      clientsPublic: [
        {
          id: kind.templateClientId,
          description: "",
          additionalScopes: [],
          accessTokenType: "hmac",
          accessTokenLifespan: 3600,
          idTokenLifespan: 3600,
          refreshTokenLifespan: 30 * day,
          redirectUriTemplates: [`{uriBase}${kind.path}`],
          ...signInSettingDefaults,
        },
      ],
      clientsBackend: [],
      clientsService: [],
    },
    values: [{ name: "uriBase", value: issuer }],
    clientsPublic: [{ id: clientId, templateClientId: kind.templateClientId }],
    clientsBackend: [],
    clientsService: [],
  };
}

/**
 * An install made before the account page had a client of its own stores the organization with the
 * console alone: the account's application is added once. Another instance starting at the same
 * moment may have added it first.
 */
async function addMissingApplication(
  db: Database,
  organizationId: string,
  application: OrganizationApplication,
): Promise<void> {
  const stored = await findOrganization(db, organizationId);
  if (!stored || stored.document.applications.some((candidate) => candidate.id === application.id)) return;
  const document = { ...stored.document, applications: [...stored.document.applications, application] };
  await replaceDocument(db, "organizations", organizationId, stored.version, document, Date.now());
}

/**
 * Makes sure the built-in "Vrata" organization and its "Console" and "Account" applications exist.
 * Their IDs are stored on first start and never regenerated, so sign-ins and tokens survive restarts;
 * their addresses follow the configured issuer.
 */
export async function ensureConsoleClient(db: Database, issuer: string): Promise<ConsoleClient> {
  const organizationId = await settingOrCreate(db, "consoleOrganizationId", newId);
  const applicationId = await settingOrCreate(db, "consoleApplicationId", newId);
  const clientId = await settingOrCreate(db, "consoleClientId", newId);
  const accountApplicationId = await settingOrCreate(db, "accountApplicationId", newId);
  const accountClientId = await settingOrCreate(db, "accountClientId", newId);
  const application = builtInApplication(consoleApplicationKind, applicationId, clientId, issuer);
  const accountApplication = builtInApplication(
    accountApplicationKind,
    accountApplicationId,
    accountClientId,
    issuer,
  );
  const builtIn = [application, accountApplication];

  if (!(await findOrganization(db, organizationId))) {
    const document: OrganizationDocument = {
      name: "Vrata",
      description: "",
      admins: [],
      applications: builtIn,
    };
    // Another instance starting at the same moment may have stored it first; any other failure stands.
    await insertDocument(db, "organizations", organizationId, document, Date.now()).catch(
      async (error: unknown) => {
        if (!(await findDocument(db, "organizations", organizationId))) throw error;
      },
    );
  }
  await addMissingApplication(db, organizationId, accountApplication);
  const stored = await findOrganization(db, organizationId);
  const builtInIds = new Set(builtIn.map((candidate) => candidate.id));
  const others = stored?.document.applications.filter((candidate) => !builtInIds.has(candidate.id)) ?? [];
  await syncClients(db, organizationId, [...builtIn, ...others]);
  return {
    organizationId,
    applicationId,
    clientId,
    redirectUri: `${issuer}${consoleApplicationKind.path}`,
    account: {
      applicationId: accountApplicationId,
      clientId: accountClientId,
      redirectUri: `${issuer}${accountApplicationKind.path}`,
    },
  };
}
