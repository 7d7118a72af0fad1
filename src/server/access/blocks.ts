import type { Database } from "../store/database.ts";
import type { Caller } from "./caller.ts";
import { accessibleIdentities } from "./identities.ts";
import { isOrganizationAdmin, type OrganizationDocument } from "./organizations.ts";

/**
 * Who may read whether an organization's identity is blocked: the organization's admins (with their
 * note), and the people who can use the identity (without it). Anybody else learns nothing, not even
 * that the identity exists.
 */
export async function blockStatusReader(
  db: Database,
  caller: Caller,
  organization: { id: string; document: Pick<OrganizationDocument, "admins"> },
  identityId: string,
): Promise<"admin" | "person" | undefined> {
  if (await isOrganizationAdmin(db, caller, organization)) return "admin";
  if ((await accessibleIdentities(db, caller.accountId)).has(identityId)) return "person";
  return undefined;
}
