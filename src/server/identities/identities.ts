import type { Change } from "../../common/api/activity.ts";
import type { IdentityFields, identityUpdateSchema } from "../../common/api/identity.ts";
import type { z } from "zod/mini";
import { usernameOrEmailMinLength } from "../../common/limits.ts";
import { characterCount } from "../../common/text.ts";
import { isHighlyRestrictive } from "../../common/scripts.ts";
import { isSecureUri } from "../../common/uris.ts";
import { recordActivity } from "../activity/activity.ts";
import { fieldChanges } from "../activity/changes.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import {
  findIdentity,
  insertIdentity,
  updateIdentityDocument,
  type IdentityDocument,
  type IdentityRow,
} from "../store/identities.ts";
import { accessibleIdentities } from "../access/identities.ts";
import type { Caller } from "../access/caller.ts";
import { applyMemberships, changeableMemberships } from "./memberships.ts";
import type { ShareNotice } from "./share-notices.ts";
import { changedShares, permissionChanges, sharedMembers, type SharingDeps } from "./sharing.ts";

const profileFields = ["username", "email", "givenName", "fullName", "pictureUrl"] as const;

/** Checks and tidies the editable fields (spec §3): empty strings are absent fields. */
export function validIdentityFields(fields: IdentityFields): IdentityFields {
  const cleaned: IdentityFields = {};
  for (const [key, value] of Object.entries(fields) as [keyof IdentityFields, string | undefined][]) {
    if (value) cleaned[key] = value;
  }
  if (!profileFields.some((field) => cleaned[field]))
    throw new HttpError(
      400,
      "emptyIdentity",
      "an identity needs at least one of username, e-mail, given name, full name or picture",
    );
  if (
    cleaned.username !== undefined &&
    (/\s|@/.test(cleaned.username) ||
      characterCount(cleaned.username) < usernameOrEmailMinLength ||
      !isHighlyRestrictive(cleaned.username))
  ) {
    throw new HttpError(
      400,
      "invalidUsername",
      "a username has at least 3 characters, no spaces and no @, in one script (no look-alike mix)",
      { field: "username" },
    );
  }
  if (cleaned.email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(cleaned.email)) {
    throw new HttpError(400, "invalidEmail", "invalid e-mail address");
  }
  if (cleaned.pictureUrl !== undefined && !isSecureUri(cleaned.pictureUrl)) {
    throw new HttpError(400, "invalidPictureUrl", "the picture must be an https:// URL");
  }
  return cleaned;
}

/** Creates an identity controlled by the account; it administers itself, which makes the account its creator. */
export async function createIdentity(
  db: Database,
  accountId: string,
  fields: IdentityFields,
): Promise<IdentityRow> {
  const id = newId();
  const document: IdentityDocument = { ...validIdentityFields(fields), admins: [id], users: [] };
  await insertIdentity(db, { id, document, creatorAccountId: accountId }, Date.now());
  await recordActivity(db, accountId, { type: "identityCreate", identities: [{ id }] });
  return { id, version: 1, document, creatorAccountId: accountId };
}

export type IdentityUpdate = z.infer<typeof identityUpdateSchema>;

const staleIdentity = () =>
  new HttpError(409, "conflict", "the identity was changed meanwhile; reload and try again");

/**
 * Changes an identity the caller administers, unless it changed since the version it saw. Its users
 * and admins are changed at the console only: a sign-in under way proves no one is managing the identity.
 * Returns the identity as saved, and who to tell of changed shares once the caller has its answer.
 */
export async function updateIdentity(
  deps: SharingDeps,
  caller: Caller,
  id: string,
  update: IdentityUpdate,
): Promise<{ identity: IdentityRow; notice?: Omit<ShareNotice, "locale"> }> {
  const { db } = deps;
  const { version, organizations, users, admins, ...fields } = update;
  const { accountId } = caller;
  const access = (await accessibleIdentities(db, accountId)).get(id);
  const identity = access && (await findIdentity(db, id));
  if (!identity) throw new HttpError(404, "notFound", "no such identity");
  if (access !== "admin") throw new HttpError(403, "forbidden", "only admins of an identity can change it");
  const sharing = users !== undefined || admins !== undefined;
  if (sharing && caller.flow)
    throw new HttpError(403, "consoleOnly", "users and admins are managed from the console");
  // A change made to another version names users and admins of that version: it is stale, not wrong.
  if (identity.version !== version) throw staleIdentity();
  const before = {
    admins: identity.document.admins,
    users: identity.document.users,
    shares: identity.document.shares ?? [],
  };
  const members = sharing ? await sharedMembers(deps, accountId, identity, { users, admins }) : before;
  // An update that sends none of the fields keeps them: the identity page saves its users, its admins
  // or its organizations on their own. (Sending none to clear them all would leave an empty identity.)
  const { admins: _admins, users: _users, shares: _shares, ...stored } = identity.document;
  const kept = Object.keys(fields).length === 0 ? stored : validIdentityFields(fields);
  const document: IdentityDocument = { ...kept, ...members };
  // Refused before anything is saved, so a refused change leaves the identity as it was.
  const memberships = organizations && (await changeableMemberships(db, id, organizations));
  if (!(await updateIdentityDocument(db, id, version, document, Date.now()))) throw staleIdentity();
  const permissions = permissionChanges(before, members);
  const changes: Change[] = [
    ...fieldChanges(identity.document, document, [...profileFields, "description"]),
    ...permissions,
    ...(organizations && memberships ? await applyMemberships(db, memberships, organizations) : []),
  ];
  if (changes.length > 0) {
    // Activating or disabling the identity in an organization is that organization's activity too.
    const statusChanged = changes
      .filter((change) => change.kind === "membershipActivated" || change.kind === "membershipDisabled")
      .flatMap((change) => change.organizations ?? []);
    const organizationsTold = (memberships ?? [])
      .filter((membership) => statusChanged.some(({ id: changed }) => changed === membership.organizationId))
      .map((membership) => ({ organizationId: membership.organizationId, membershipId: membership.id }));
    await recordActivity(
      db,
      accountId,
      { type: "identityUpdate", identities: [{ id }], changes },
      organizationsTold,
    );
  }
  const saved = { ...identity, version: version + 1, document };
  const changed = changedShares(before, members);
  if (changed.length === 0) return { identity: saved };
  return { identity: saved, notice: { identityId: id, sharer: accountId, permissions, changed } };
}
