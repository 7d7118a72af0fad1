import type { Change } from "../../common/api/activity.ts";
import type { IdentityMember, MemberChange } from "../../common/api/identity.ts";
import { findAccountByIdentifier } from "../accounts/accounts.ts";
import { normalizeIdentifier } from "../accounts/normalize.ts";
import { isRefusal, reserveAll, shareBuckets, type LimitStore } from "../flow/throttle.ts";
import { HttpError, TooManyRequestsError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import type {
  IdentityDocument,
  IdentityRole,
  IdentityRow,
  IdentityShare,
  ShareTarget,
} from "../store/identities.ts";

// Sharing an identity (spec §2, identity page: users and admins). An identity's `admins` and `users`
// name identities, and an identity a person creates lists itself among its admins: its creator's
// account has its access through that entry ("creator"). A person the identity is shared with is named
// by their username or e-mail address, and the share goes to a person, not to one of their identities:
// - the admin who shares learns nothing of the other person's identities: picking one would show the
//   admin its ID, and an account may have several identities, or none yet;
// - nobody learns anybody's account: the identity's admins see each share by the username or e-mail
//   address it was made with and by an ID of the share's own; the account's ID never leaves the server;
// - a share by username is that account's (usernames are no secret: the sign-in step tells whether
//   one has an account); a share by e-mail address is the address's: it belongs to whichever account
//   proved it owns the address, now or once one signs up with it. Sharing with an address therefore
//   answers the same whether or not an account has it, and the person is told after the answer;
// - shares change with the identity's versioned document (those with addresses are stored beside it,
//   in the same transaction), so of two edits made at once from the same version the second is refused
//   (409), and the last admin cannot be removed by two requests together.

/** What sharing works with: the store, and the limits on naming people. */
export interface SharingDeps {
  db: Database;
  limits: LimitStore;
}

/** The identity's users and admins as its document holds them. */
export type Members = Pick<IdentityDocument, "admins" | "users" | "shares">;

/** One entry of the users or admins: an identity (by its ID) or a share. */
interface Entry {
  key: string;
  share?: IdentityShare;
  /** A person added by this edit. */
  added?: ShareTarget;
}

const roles = ["admin", "user"] as const;

/** What tells shares apart: the account of a share by username, the address of a share by e-mail. */
export const shareKey = (share: ShareTarget): string => share.accountId ?? `address:${share.addressKey}`;

/** Whom a share is for, without what it grants. */
const targetOf = ({ person, accountId, addressKey }: ShareTarget): ShareTarget =>
  accountId === undefined ? { person, addressKey } : { person, accountId };

/**
 * The person a username or e-mail address names. Each name costs a unit of the sharing account's and
 * of the name's limits before anything is looked up. An address is taken as it is; a username must be
 * an account's, and whatever else is wrong with one, the answer is the same "no such person".
 */
async function sharedPerson(
  deps: SharingDeps,
  sharer: string,
  person: string,
  field: string,
): Promise<ShareTarget> {
  const unknownPerson = () => new HttpError(400, "unknownPerson", "nobody has this username", { field });
  const identifier = normalizeIdentifier(person);
  if (typeof identifier === "string") {
    if (person.includes("@")) throw new HttpError(400, "invalidEmail", "invalid e-mail address", { field });
    throw unknownPerson();
  }
  const reserved = await reserveAll(deps.limits, shareBuckets(sharer, identifier.key));
  if (isRefusal(reserved))
    throw new TooManyRequestsError(
      "too many people named to share with; try again later",
      Math.ceil(reserved.retryAfterMs / 1000),
    );
  if (identifier.kind === "email") return { addressKey: identifier.key, person: identifier.display };
  const accountId = await findAccountByIdentifier(deps.db, identifier);
  if (accountId === undefined) throw unknownPerson();
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
  deps: SharingDeps,
  sharer: string,
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
      const target = await sharedPerson(deps, sharer, change.person, `${field}.${index}.person`);
      if (target.accountId === identity.creatorAccountId && identity.document.admins.includes(identity.id)) {
        throw new HttpError(409, "alreadyShared", "this person created the identity and administers it", {
          field: `${field}.${index}.person`,
        });
      }
      const key = shareKey(target);
      const share = current.find((candidate) => candidate.share && shareKey(candidate.share) === key);
      entry = share ?? { key: `share:${key}`, added: target };
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
  deps: SharingDeps,
  sharer: string,
  identity: IdentityRow,
  wanted: { users?: MemberChange[] | undefined; admins?: MemberChange[] | undefined },
): Promise<Members> {
  const current = currentEntries(identity);
  const everyone = [...(current.get("admin") ?? []), ...(current.get("user") ?? [])];
  const given = new Map<IdentityRole, Entry[]>();
  for (const [role, list, field] of [
    ["admin", wanted.admins, "admins"],
    ["user", wanted.users, "users"],
  ] as const)
    if (list) given.set(role, await resolve(deps, sharer, identity, everyone, list, field));

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
      if (added) shares.push({ id: newId(), ...added, role });
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
      .map((share) => ({ key: shareKey(share), share })),
  ];
}

/**
 * What an edit of the users and admins changed, for activity: per role, who got it and who lost it.
 * Becoming an admin is not also told as losing use, nor becoming a user after being an admin as
 * gaining it. Shares are keyed by whom they are for, so a share given again reads as no change.
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

/** The people whose shares an edit added, removed or changed: each is told in their own activity. */
export function changedShares(before: Members, after: Members): (ShareTarget & { added: boolean })[] {
  const find = (members: Members, key: string) => members.shares?.find((share) => shareKey(share) === key);
  const changed = new Map<string, ShareTarget & { added: boolean }>();
  for (const share of [...(before.shares ?? []), ...(after.shares ?? [])]) {
    const key = shareKey(share);
    const [had, has] = [find(before, key), find(after, key)];
    if (had?.role === has?.role) continue;
    changed.set(key, { ...targetOf(share), added: had === undefined });
  }
  return [...changed.values()];
}

/**
 * The users and admins as the identity's admins see them. `reaches` tells whether the signed-in
 * person's account reaches an identity, and `isReader` whether a share is theirs, for the "current"
 * entry.
 */
export function memberViews(
  identity: IdentityRow,
  accountId: string,
  reaches: (identityId: string) => boolean,
  isReader: (share: IdentityShare) => boolean,
): { users: IdentityMember[]; admins: IdentityMember[] } {
  const view = ({ key, share }: { key: string; share?: IdentityShare }): IdentityMember =>
    share
      ? { id: share.id, person: share.person, creator: false, isCurrent: isReader(share) }
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
