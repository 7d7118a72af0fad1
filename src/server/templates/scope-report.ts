import type { FastifyBaseLogger } from "fastify";
import { templateScopeProblems } from "../../common/scopes.ts";
import type { OrganizationDocument } from "../access/organizations.ts";
import type { Database } from "../store/database.ts";
import { listDocuments } from "../store/documents.ts";
import type { TemplateDocument } from "./templates.ts";

// Templates stored before their scopes were checked may hold scopes the engine refuses: such a scope
// is left out of their clients (common/scopes.ts), so a request for it gets invalid_scope. Admins
// learn of them when the instance starts, and at the template in the console.

/** Logs a warning for each stored template and organization's copy of one with such scopes. */
export async function reportRefusedScopes(db: Database, log: Pick<FastifyBaseLogger, "warn">): Promise<void> {
  for (const { id, document } of await listDocuments<TemplateDocument>(db, "application_templates")) {
    const problems = templateScopeProblems(document);
    if (problems.length > 0) {
      log.warn({ templateId: id, problems }, "an application template has scopes its clients cannot get");
    }
  }
  for (const { id, document } of await listDocuments<OrganizationDocument>(db, "organizations")) {
    for (const application of document.applications) {
      const problems = templateScopeProblems(application.applicationTemplate);
      if (problems.length > 0) {
        log.warn(
          { organizationId: id, applicationId: application.id, templateId: application.templateId, problems },
          "an organization's application has scopes its clients cannot get",
        );
      }
    }
  }
}
