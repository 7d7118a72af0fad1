import type { OrganizationApplication } from "../../common/api/organization.ts";
import { recordActivity } from "../activity/activity.ts";
import { comparable, fieldChanges } from "../activity/changes.ts";
import { findOrganization } from "../access/organizations.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { organizationIdsWithTemplate, replaceDocument } from "../store/documents.ts";
import { findTemplate, recordedFields, type TemplateDocument } from "../templates/templates.ts";
import { forgetApplications } from "./applications.ts";
import { syncClients } from "./clients.ts";

// An organization's app follows its template (design.md §2): saving the template re-derives every
// added app from the new version. Clients the template kept keep their IDs and secrets, clients it
// added get new IDs (a confidential one waits for its organization to ask for its secret), and
// clients it removed are gone with their tokens.

type AppClient = OrganizationApplication["clientsPublic"][number];

function followedClients(
  had: readonly AppClient[],
  templateClients: readonly { id?: string | undefined }[],
  confidential: boolean,
): AppClient[] {
  return templateClients.map(
    ({ id: templateClientId = "" }) =>
      had.find((client) => client.templateClientId === templateClientId) ?? {
        id: newId(),
        templateClientId,
        ...(confidential ? { needsSecret: true as const } : {}),
      },
  );
}

/**
 * The app as the template's version makes it. Values of variables the template no longer has are
 * dropped; a variable it added gets its default, or stays without a value until the organization
 * gives one (the app needs configuration).
 */
export function followedApplication(
  application: OrganizationApplication,
  template: TemplateDocument,
): OrganizationApplication {
  const { admins: _admins, ...copy } = template;
  const values = copy.variables.flatMap(({ name, default: fallback }) => {
    const value = application.values.find((given) => given.name === name)?.value || fallback;
    return value ? [{ name, value }] : [];
  });
  return {
    ...application,
    applicationTemplate: copy,
    values,
    clientsPublic: followedClients(application.clientsPublic, copy.clientsPublic, false),
    clientsBackend: followedClients(application.clientsBackend, copy.clientsBackend, true),
    clientsService: followedClients(application.clientsService, copy.clientsService, true),
  };
}

/** A save of an organization that another save keeps beating is given up after this many tries. */
const attempts = 10;

/** Makes one organization's apps of the template follow it; false when another save came first. */
async function followIn(
  db: Database,
  organizationId: string,
  templateId: string,
  template: TemplateDocument,
): Promise<boolean> {
  const stored = await findOrganization(db, organizationId);
  if (!stored) return true;
  const before = stored.document.applications;
  const applications = before.map((application) =>
    application.templateId === templateId ? followedApplication(application, template) : application,
  );
  const changed = applications.filter(
    (application, index) => comparable(application) !== comparable(before[index]),
  );
  if (changed.length === 0) return true;
  const document = { ...stored.document, applications };
  if (!(await replaceDocument(db, "organizations", organizationId, stored.version, document, Date.now())))
    return false;
  await syncClients(db, organizationId, applications, stored.document.active !== false);
  // The apps of one template changed alike: the first tells what changed.
  const [first] = changed;
  const previous = before.find((application) => application.id === first?.id);
  await recordActivity(
    db,
    null,
    {
      type: "applicationTemplateFollowed",
      organizations: [{ id: organizationId }],
      applications: changed.map(({ id }) => ({ organizationId, applicationId: id })),
      applicationTemplates: [{ id: templateId }],
      changes:
        previous && first
          ? fieldChanges(previous.applicationTemplate, first.applicationTemplate, recordedFields)
          : [],
    },
    [{ organizationId }],
  );
  return true;
}

/**
 * Makes every organization's app of the template follow its latest version, and answers how many
 * organizations use it. Following is idempotent: a save that gave up with a conflict is completed by
 * the template's next save.
 */
export async function followTemplate(db: Database, templateId: string): Promise<number> {
  const template = await findTemplate(db, templateId);
  if (!template) return 0;
  const organizationIds = await organizationIdsWithTemplate(db, templateId);
  for (const organizationId of organizationIds) {
    let done = false;
    for (let attempt = 0; attempt < attempts && !done; attempt++)
      done = await followIn(db, organizationId, templateId, template.document);
    if (!done)
      throw new HttpError(409, "conflict", "an organization using the template keeps changing; save again");
  }
  forgetApplications(db);
  return organizationIds.length;
}
