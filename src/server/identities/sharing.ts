import type { Change } from "../../common/api/activity.ts";
import type { IdentityMember, MemberChange } from "../../common/api/identity.ts";
import { findAccountByIdentifier } from "../accounts/accounts.ts";
import { normalizeIdentifier } from "../accounts/normalize.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import type { IdentityDocument, IdentityRole, IdentityRow, IdentityShare } from "../store/identities.ts";

// Sharing an identity (spec §2, identity page: users and admins). An identity's `admins` and `users`
// name identities, and an identity a person creates lists itself among its admins: its creator's
// account has its access through that entry ("creator"). A person the identity is shared with is named
// by their username or e-mail address, and the share goes to their *account*, not to one of its
// identities:
// - the admin who shares learns nothing of the other person's identities: picking one would show the
//   admin its ID, and an account may have several identities, or none yet;
// - nobody learns anybody's account: the identity's admins see each share by the username or e-mail
//   address it was made with and by an ID of the share's own; the account's ID never leaves the server;
// - shares live in the identity's versioned document, so of two edits made at once from the same
//   version the second is refused (409), and the last admin cannot be removed by two requests together.

/** The identity's users and admins as its document holds them. */
export type Members = Pick<IdentityDocument, "admins" | "users" | "shares">;

/** One entry of the users or admins: an identity (by its ID) or a share. */
interface Entry {
  key: string;
  share?: IdentityShare;
  /** A person added by this edit: the account to share with and how the admin named it. */
  added?: { accountId: string; person: string };
}

const roles = ["admin", "user"] as const;

/**
 * The account a username or e-mail address names. An address finds only an account that proved it
 * owns it. Whatever is wrong, the answer is the same "no such person": the sign-in step already says
 * whether a username has an account, so this tells an identity's admin nothing more than it does.
 */
async function personAccount(db: Database, person: string, field: string) {
  const identifier = normalizeIdentifier(person);
  const accountId =
    typeof identifier === "string" ? undefined : await findAccountByIdentifier(db, identifier);
  if (typeof identifier === "string" || accountId === undefined) {
    throw new HttpError(400, "unknownPerson", "nobody has this username or e-mail address", { field });
  }
  return { accountId, person: identifier.display };
}

function currentEntries(identity: IdentityRow): Map<IdentityRole, Entry[]> {
  const { admins, users, shares = [] } = identity.document;
  const ofRole = (role: IdentityRole) => shares.filter((share) => share.role === role);
  return new Map([
    [
      "admin",
      [...admins.map((key) => ({ key })), ...ofRole("admin").map((share) => ({ key: share.id, share }))],
    ],
    [
      "user",
      [
        ...users.filter((key) => !admins.includes(key)).map((key) => ({ key })),
        ...ofRole("user").map((share) => ({ key: share.id, share })),
      ],
    ],
  ]);
}

/** The entries an admin's list names, each once: existing ones by ID, people by username or e-mail. */
async function resolve(
  db: Database,
  identity: IdentityRow,
  current: readonly Entry[],
  list: readonly MemberChange[],
  field: string,
): Promise<Entry[]> {
  const resolved: Entry[] = [];
  for (const [index, change] of list.entries()) {
    let entry: Entry | undefined;
    if ("id" in change) {
      // The identity's own entry may be given back after it was removed: its creator's access returns.
      entry =
        current.find((candidate) => candidate.key === change.id) ??
        (change.id === identity.id ? { key: identity.id } : undefined);
      if (!entry) {
        throw new HttpError(400, "unknownIdentity", `no user or admin ${change.id}`, {
          field: `${field}.${index}.id`,
        });
      }
    } else {
      const { accountId, person } = await personAccount(db, change.person, `${field}.${index}.person`);
      if (accountId === identity.creatorAccountId && identity.document.admins.includes(identity.id)) {
        throw new HttpError(409, "alreadyShared", "this person created the identity and administers it", {
          field: `${field}.${index}.person`,
        });
      }
      const share = current.find((candidate) => candidate.share?.accountId === accountId);
      entry = share ?? { key: `account:${accountId}`, added: { accountId, person } };
    }
    if (!resolved.some((candidate) => candidate.key === entry.key)) resolved.push(entry);
  }
  return resolved;
}

/**
 * The users and admins an admin's edit asks for. A list that is not sent stays as it is, except for
 * entries the other list moves to its role. Refused when no admin would remain.
 */
export async function sharedMembers(
  db: Database,
  identity: IdentityRow,
  wanted: { users?: MemberChange[] | undefined; admins?: MemberChange[] | undefined },
): Promise<Members> {
  const current = currentEntries(identity);
  const everyone = [...(current.get("admin") ?? []), ...(current.get("user") ?? [])];
  const given = new Map<IdentityRole, Entry[]>();
  if (wanted.admins) given.set("admin", await resolve(db, identity, everyone, wanted.admins, "admins"));
  if (wanted.users) given.set("user", await resolve(db, identity, everyone, wanted.users, "users"));

  const keysOf = (entries: readonly Entry[] | undefined) => new Set(entries?.map((entry) => entry.key));
  const kept = (role: IdentityRole, other: IdentityRole) =>
    (current.get(role) ?? []).filter((entry) => !keysOf(given.get(other)).has(entry.key));
  const admins = given.get("admin") ?? kept("admin", "user");
  const adminKeys = keysOf(admins);
  const users = (given.get("user") ?? kept("user", "admin")).filter((entry) => !adminKeys.has(entry.key));
  if (admins.length === 0) {
    throw new HttpError(409, "lastAdmin", "an identity keeps at least one admin", { field: "admins" });
  }

  const shares: IdentityShare[] = [];
  const identities = (entries: readonly Entry[]) =>
    entries.flatMap((entry) => (entry.share || entry.added ? [] : [entry.key]));
  for (const [role, entries] of [
    ["admin", admins],
    ["user", users],
  ] as const) {
    for (const { share, added } of entries) {
      if (share) shares.push({ ...share, role });
      if (added) shares.push({ id: newId(), accountId: added.accountId, person: added.person, role });
    }
  }
  return { admins: identities(admins), users: identities(users), shares };
}

/** Each entry of a role in one list: identities by ID, shares by their own ID. */
function entriesOf(members: Members, role: IdentityRole): { key: string; share?: IdentityShare }[] {
  const listed =
    role === "admin" ? members.admins : members.users.filter((id) => !members.admins.includes(id));
  return [
    ...listed.map((key) => ({ key })),
    ...(members.shares ?? [])
      .filter((share) => share.role === role)
      .map((share) => ({ key: share.accountId, share })),
  ];
}

/**
 * What an edit of the users and admins changed, for activity: per role, who got it and who lost it.
 * Becoming an admin is not also told as losing use, nor becoming a user after being an admin as
 * gaining it. Shares are keyed by account, so a share given again reads as no change.
 */
export function permissionChanges(before: Members, after: Members): Change[] {
  const keys = (members: Members, role: IdentityRole) =>
    new Set(entriesOf(members, role).map((entry) => entry.key));
  const changes: Change[] = [];
  for (const role of roles) {
    const other = role === "admin" ? "user" : "admin";
    const had = keys(before, role);
    const has = keys(after, role);
    const added = entriesOf(after, role).filter(
      ({ key }) => !had.has(key) && !(role === "user" && keys(before, other).has(key)),
    );
    const removed = entriesOf(before, role).filter(
      ({ key }) => !has.has(key) && !(role === "user" && keys(after, other).has(key)),
    );
    for (const [kind, entries] of [
      ["permissionsAdded", added],
      ["permissionsRemoved", removed],
    ] as const) {
      if (entries.length === 0) continue;
      const identities = entries.filter((entry) => !entry.share).map(({ key }) => ({ id: key }));
      const people = entries.flatMap(({ share }) => (share ? [share.person] : []));
      changes.push({
        kind,
        role,
        ...(identities.length > 0 ? { identities } : {}),
        ...(people.length > 0 ? { people } : {}),
      });
    }
  }
  return changes;
}

/** The accounts whose shares an edit added, removed or changed: each is told in its own activity. */
export function affectedAccounts(before: Members, after: Members): { accountId: string; person: string }[] {
  const role = (members: Members, accountId: string) =>
    members.shares?.find((share) => share.accountId === accountId)?.role;
  const all = [...(before.shares ?? []), ...(after.shares ?? [])];
  const affected = new Map<string, string>();
  for (const share of all)
    if (role(before, share.accountId) !== role(after, share.accountId))
      affected.set(share.accountId, share.person);
  return [...affected].map(([accountId, person]) => ({ accountId, person }));
}

/**
 * The users and admins as the identity's admins see them. `reaches` tells whether the signed-in
 * person's account reaches an identity, for the "current" entry.
 */
export function memberViews(
  identity: IdentityRow,
  accountId: string,
  reaches: (identityId: string) => boolean,
): { users: IdentityMember[]; admins: IdentityMember[] } {
  const view = ({ key, share }: { key: string; share?: IdentityShare }): IdentityMember =>
    share
      ? { id: share.id, person: share.person, creator: false, isCurrent: share.accountId === accountId }
      : {
          id: key,
          creator: key === identity.id,
          isCurrent: key === identity.id ? identity.creatorAccountId === accountId : reaches(key),
        };
  return {
    users: entriesOf(identity.document, "user").map(view),
    admins: entriesOf(identity.document, "admin").map(view),
  };
}
