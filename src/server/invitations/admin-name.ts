import { displayName } from "../../common/api/identity.ts";
import type { Database } from "../store/database.ts";
import { findIdentity, membershipsIn } from "../store/identities.ts";

/**
 * An admin's identity as the organization shows it: by its name, or, with none, by the ID the
 * organization knows it by, never by its own ID, which the organization does not see.
 */
export async function adminName(db: Database, organizationId: string, identityId: string): Promise<string> {
  const identity = await findIdentity(db, identityId);
  const [membership] = await membershipsIn(db, organizationId, [identityId]);
  const scopedId = membership?.id ?? "";
  return identity ? displayName({ ...identity.document, id: scopedId }) : scopedId;
}
