import {
  derivedUris,
  kindsAtAnAddress,
  loopbackRedirectUri,
  tidyAddress,
  type ConnectApp,
  type ConnectedApp,
} from "../../common/api/connect-app.ts";
import { templateFieldsSchema, type TemplateFields } from "../../common/api/template.ts";
import type { Caller } from "../access/caller.ts";
import { actingIdentity } from "../access/documents.ts";
import { HttpError } from "../http/errors.ts";
import type { Database } from "../store/database.ts";
import { forgetClients } from "../store/clients.ts";
import { createTemplate } from "../templates/templates.ts";
import { forgetApplications } from "./applications.ts";
import { createOrganization, findOrganization, updateOrganization } from "./organizations.ts";

// Connecting an app in one step (common/api/connect-app.ts): the template, the organization and the
// app are made as the console makes each of them, with the same checks and activity, in one
// transaction, so a refusal at any step leaves nothing half made.

/** The variable the derived URIs use: what the app's page shows as its configuration. */
const addressVariable = "uriBase";

/** The template of one client of the kind; the address, when the kind has one, is its variable. */
function templateOf({ kind, name }: ConnectApp): TemplateFields {
  const { redirectUri, postLogoutRedirectUri } = derivedUris(`{${addressVariable}}`);
  const atAddress = {
    variables: [{ name: addressVariable, description: "" }],
    homepageTemplate: `{${addressVariable}}`,
  };
  const signIn = {
    redirectUriTemplates: [redirectUri],
    postLogoutRedirectUriTemplates: [postLogoutRedirectUri],
  };
  const clients = {
    singlePage: { ...atAddress, clientsPublic: [signIn] },
    webServer: {
      ...atAddress,
      clientsBackend: [{ ...signIn, tokenEndpointAuthMethod: "client_secret_basic" }],
    },
    service: { clientsService: [{ tokenEndpointAuthMethod: "client_secret_basic" }] },
    native: { clientsPublic: [{ redirectUriTemplates: [loopbackRedirectUri] }] },
  }[kind];
  return templateFieldsSchema.parse({ name, idScopes: ["openid", "profile", "email"], ...clients });
}

/** The errors of URIs made from the address: the form shows them at the address. */
const addressErrors = new Set(["invalidRedirectUri", "invalidPostLogoutRedirectUri", "invalidHomepage"]);

/** Runs `work`; a URI it refuses was derived from the address, so the refusal names that field. */
async function refusalsAtAddress<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && addressErrors.has(error.code)) {
      throw new HttpError(error.statusCode, error.code, error.message, { field: "address" });
    }
    throw error;
  }
}

/** The app added to an organization as its admins save one: every other app kept as it is. */
async function addApplication(
  db: Database,
  caller: Caller,
  organizationId: string,
  templateId: string,
  values: { name: string; value: string }[],
  reachInternal: boolean,
) {
  const stored = await findOrganization(db, organizationId);
  if (!stored) throw new HttpError(404, "notFound", "no such organization", { field: "organizationId" });
  const { document } = stored;
  return updateOrganization(
    db,
    caller,
    organizationId,
    {
      version: stored.version,
      name: document.name,
      description: document.description,
      admins: document.admins,
      applications: [
        ...document.applications.map(({ id, active, values: kept }) => ({ id, active, values: kept })),
        { templateId, active: true, values },
      ],
      rotateSecrets: [],
    },
    reachInternal,
  );
}

/**
 * Makes the template of the app's kind, the organization when none is named, and the app in it, for
 * the caller; the answer has where the app is and its client's secret, once.
 */
export async function connectApp(
  db: Database,
  caller: Caller,
  request: ConnectApp,
  /** URIs that Vrata calls may name internal hosts (--backchannel-logout-private). */
  reachInternal: boolean,
): Promise<ConnectedApp> {
  actingIdentity(caller);
  const address = tidyAddress(request.address);
  const atAddress = kindsAtAnAddress.includes(request.kind);
  if (atAddress && address === "") {
    throw new HttpError(400, "invalidRedirectUri", "address: where the app runs is needed", {
      field: "address",
    });
  }
  const values = atAddress ? [{ name: addressVariable, value: address }] : [];
  const connected = await db.transaction().execute(async (trx) => {
    const templateId = await createTemplate(trx, caller, templateOf(request), reachInternal);
    const organizationId =
      request.organizationId ??
      (await createOrganization(trx, caller, {
        name: request.organizationName ?? request.name,
        description: "",
      }));
    const organization = await refusalsAtAddress(() =>
      addApplication(trx, caller, organizationId, templateId, values, reachInternal),
    );
    const application = organization.applications?.find((candidate) => candidate.templateId === templateId);
    if (!application) throw new Error("the organization's answer lacks the app just added");
    return {
      organizationId,
      applicationId: application.id,
      templateId,
      secrets: organization.secrets ?? [],
    };
  });
  // Made in a transaction, which the caches do not know: this server reads the new clients at once.
  forgetClients(db);
  forgetApplications(db);
  return connected;
}
