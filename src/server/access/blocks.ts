import type { Database } from "../store/database.ts";
import type { Caller } from "./caller.ts";
import { isAdmin } from "./documents.ts";
import { accessibleIdentities } from "./identities.ts";

/**
 * Who may read whether an organization's identity is blocked: the organization's admins (with their
 * note), and the people who can use the identity (without it). Anybody else learns nothing, not even
 * that the identity exists.
 */
export async function blockStatusReader(
  db: Database,
  caller: Caller,
  organizationAdmins: readonly string[],
  identityId: string,
): Promise<"admin" | "person" | undefined> {
  if (isAdmin(caller, organizationAdmins)) return "admin";
  if ((await accessibleIdentities(db, caller.accountId)).has(identityId)) return "person";
  return undefined;
}
