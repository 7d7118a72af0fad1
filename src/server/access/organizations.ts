import type { OrganizationApplication } from "../../common/api/organization.ts";
import { HttpError } from "../http/errors.ts";
import type { Database } from "../store/database.ts";
import { findDocument } from "../store/documents.ts";
import { withSettingDefaults } from "../templates/stored.ts";
import type { Caller } from "./caller.ts";
import { actingIdentity } from "./documents.ts";

/** An organization as stored. */
export interface OrganizationDocument {
  name: string;
  description: string;
  admins: string[];
  applications: OrganizationApplication[];
  /** Disabled organizations' apps refuse sign-in and tokens; absent means active. */
  active?: boolean;
}

/** An organization as read from the store: its copies of templates read with today's client settings. */
export async function findOrganization(db: Database, id: string) {
  const stored = await findDocument<OrganizationDocument>(db, "organizations", id);
  if (!stored) return undefined;
  const applications = stored.document.applications.map((application) => ({
    ...application,
    applicationTemplate: withSettingDefaults(application.applicationTemplate),
  }));
  return { ...stored, document: { ...stored.document, applications } };
}

/**
 * The organization with the identity the caller acts as, when that identity is one of its admins:
 * 404 when there is no such organization, 403 for anyone else.
 */
export async function administeredOrganization(db: Database, caller: Caller, id: string) {
  const editor = actingIdentity(caller);
  const stored = await findOrganization(db, id);
  if (!stored) throw new HttpError(404, "notFound", "no such organization");
  if (!stored.document.admins.includes(editor))
    throw new HttpError(403, "forbidden", "only the organization's admins can do this");
  return { editor, stored };
}
