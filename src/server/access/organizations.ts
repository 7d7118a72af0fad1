import type { SignInPolicy } from "../../common/api/second-factor.ts";
import type { OrganizationApplication } from "../../common/api/organization.ts";
import { HttpError } from "../http/errors.ts";
import { isBlocked } from "../store/blocks.ts";
import type { Database } from "../store/database.ts";
import { findDocument } from "../store/documents.ts";
import { withSettingDefaults } from "../templates/stored.ts";
import type { Caller } from "./caller.ts";
import { actingIdentity, isAdmin } from "./documents.ts";

/** An organization as stored. */
export interface OrganizationDocument {
  name: string;
  description: string;
  admins: string[];
  applications: OrganizationApplication[];
  /** Disabled organizations' apps refuse sign-in and tokens; absent means active. */
  active?: boolean;
  /** What its apps ask of people signing in; absent means "any". */
  signInPolicy?: SignInPolicy;
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

// A block binds every identity it covers in every role (design.md §6): an admin whose console
// identity is blocked in the organization, or whose account a block there covers, is no admin of it
// until the block is lifted. Every admin rule of organizations goes through these.

/** Whether a block in the organization binds the caller: of the identity it acts as, or of its account. */
const blockBinds = (db: Database, caller: Caller, organizationId: string) =>
  isBlocked(db, organizationId, caller.identityId, caller.accountId);

/** Of these organizations, the IDs of those the caller acts as an admin of. */
export async function administeredAmong(
  db: Database,
  caller: Caller | undefined,
  organizations: readonly { id: string; document: Pick<OrganizationDocument, "admins"> }[],
): Promise<Set<string>> {
  const administered = new Set<string>();
  if (!caller) return administered;
  for (const { id, document } of organizations)
    if (isAdmin(caller, document.admins) && !(await blockBinds(db, caller, id))) administered.add(id);
  return administered;
}

/** Whether the caller acts as one of the organization's admins. */
export async function isOrganizationAdmin(
  db: Database,
  caller: Caller | undefined,
  organization: { id: string; document: Pick<OrganizationDocument, "admins"> },
): Promise<boolean> {
  return (await administeredAmong(db, caller, [organization])).has(organization.id);
}

/**
 * The organization with the identity the caller acts as, when that identity is one of its admins:
 * 404 when there is no such organization, 403 for anyone else, and 403 adminBlocked for an admin a
 * block there binds.
 */
export async function administeredOrganization(db: Database, caller: Caller, id: string) {
  const editor = actingIdentity(caller);
  const stored = await findOrganization(db, id);
  if (!stored) throw new HttpError(404, "notFound", "no such organization");
  if (!stored.document.admins.includes(editor))
    throw new HttpError(403, "forbidden", "only the organization's admins can do this");
  if (await blockBinds(db, caller, id))
    throw new HttpError(403, "adminBlocked", "a block in this organization binds this admin");
  return { editor, stored };
}
