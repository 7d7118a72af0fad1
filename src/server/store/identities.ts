import { sql } from "kysely";
import { splitScopes } from "./application-choices.ts";
import { accountBlocks, bindingBlocks } from "./blocks.ts";
import { inTransaction, type Database } from "./database.ts";
import { insertMemberWords, memberWordRows, replaceMemberWords } from "./member-search-words.ts";
import { searchWordsOf } from "./search-text.ts";
import { preparedQuery } from "./prepared.ts";

export interface IdentityDocument {
  username?: string;
  email?: string;
  givenName?: string;
  fullName?: string;
  pictureUrl?: string;
  description?: string;
  /** Identities that administer this one; an identity created by a person lists itself. */
  admins: string[];
  /** Identities that may use this one. */
  users: string[];
  /**
   * The people the identity's admins shared it with, in the order they listed them (absent: nobody).
   * Stored, the document holds only the shares with accounts; those with e-mail addresses are rows of
   * `identity_address_shares` (migration 0016 says why), put back here when the identity is read.
   */
  shares?: IdentityShare[];
}

export type IdentityRole = "admin" | "user";

/**
 * Whom an identity is shared with, as its admins named them: by username, an account; by e-mail
 * address, the address, whose share is that of whichever account owns it (none may yet).
 */
export type ShareTarget = {
  /** The username or e-mail address the admin who shared it typed. */
  person: string;
} & ({ accountId: string; addressKey?: undefined } | { addressKey: string; accountId?: undefined });

/** A person an identity is shared with, and how. */
export type IdentityShare = ShareTarget & {
  /** The share's own ID: what the identity's admins see and send back, never the account's ID. */
  id: string;
  role: IdentityRole;
};

export interface IdentityRow {
  id: string;
  version: number;
  document: IdentityDocument;
  creatorAccountId: string | null;
}

export interface MembershipRow {
  /** The organization-scoped identity ID (the `sub` the organization's apps see). */
  id: string;
  identityId: string;
  organizationId: string;
  active: boolean;
}

const memberRows = (identityId: string, document: IdentityDocument) => [
  ...document.admins.map((member) => ({
    identity_id: identityId,
    member_identity_id: member,
    role: "admin" as const,
  })),
  ...document.users
    .filter((member) => !document.admins.includes(member))
    .map((member) => ({ identity_id: identityId, member_identity_id: member, role: "user" as const })),
];

const shareRows = (identityId: string, document: IdentityDocument) =>
  (document.shares ?? []).flatMap(({ accountId, role }) =>
    accountId === undefined ? [] : [{ identity_id: identityId, account_id: accountId, role }],
  );

const addressShareRows = (identityId: string, document: IdentityDocument) =>
  (document.shares ?? []).flatMap(({ addressKey, id, person, role }, position) =>
    addressKey === undefined
      ? []
      : [{ identity_id: identityId, address_key: addressKey, id, person, role, position }],
  );

/** The document as stored: without its shares with e-mail addresses, which are rows of their own. */
const storedDocument = (document: IdentityDocument): string =>
  JSON.stringify(
    document.shares === undefined
      ? document
      : { ...document, shares: document.shares.filter((share) => share.accountId !== undefined) },
  );

/**
 * Replaces the lookup rows of the identity's members, shares and its memberships' search words with
 * those of its document, and the rows of its shares with e-mail addresses.
 */
async function storeLookups(trx: Database, id: string, document: IdentityDocument, replace: boolean) {
  if (replace) {
    await trx.deleteFrom("identity_members").where("identity_id", "=", id).execute();
    await trx.deleteFrom("identity_shares").where("identity_id", "=", id).execute();
    await trx.deleteFrom("identity_address_shares").where("identity_id", "=", id).execute();
    await trx.deleteFrom("identity_search_words").where("identity_id", "=", id).execute();
  }
  const members = memberRows(id, document);
  if (members.length > 0) await trx.insertInto("identity_members").values(members).execute();
  const shares = shareRows(id, document);
  if (shares.length > 0) await trx.insertInto("identity_shares").values(shares).execute();
  const addressShares = addressShareRows(id, document);
  if (addressShares.length > 0)
    await trx.insertInto("identity_address_shares").values(addressShares).execute();
  // The previous release searches these rows: kept in step while it may still serve (a rolling
  // upgrade), and so that a dropped name leaves the store; a later release drops the table.
  const words = searchWordsOf(document).map((word) => ({ word, identity_id: id }));
  if (words.length > 0) await trx.insertInto("identity_search_words").values(words).execute();
  // A new identity is nobody's member yet: its words come with its first membership.
  if (replace) await replaceMemberWords(trx, id, document);
}

export async function insertIdentity(
  db: Database,
  identity: { id: string; document: IdentityDocument; creatorAccountId: string | null },
  now: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("identities")
      .values({
        id: identity.id,
        version: 1,
        document: storedDocument(identity.document),
        creator_account_id: identity.creatorAccountId,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await storeLookups(trx, identity.id, identity.document, false);
  });
}

/** Replaces the document if it is still at `version`; false when someone else changed it first. */
export async function updateIdentityDocument(
  db: Database,
  id: string,
  version: number,
  document: IdentityDocument,
  now: number,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("identities")
      .set({
        document: storedDocument(document),
        version: version + 1,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("version", "=", version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await storeLookups(trx, id, document, true);
    return true;
  });
}

const identityColumns = ["id", "version", "document", "creator_account_id"] as const;

/** What a reader of identities leaves out: their shares with e-mail addresses, which it never shows. */
export interface IdentityReading {
  withAddressShares?: boolean;
}

/**
 * The identities of these rows, each with its shares with e-mail addresses back among its shares
 * (without them, `shares` lists only those with accounts).
 */
async function toIdentities(
  db: Database,
  rows: readonly { id: string; version: number; document: string; creator_account_id: string | null }[],
  { withAddressShares = true }: IdentityReading = {},
): Promise<IdentityRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const addressShares = withAddressShares
    ? await db
        .selectFrom("identity_address_shares")
        .select(["identity_id", "address_key", "id", "person", "role", "position"])
        .where("identity_id", "in", ids)
        .orderBy("position")
        .execute()
    : [];
  return rows.map((row) => {
    const document = JSON.parse(row.document) as IdentityDocument;
    const own = addressShares.filter((share) => share.identity_id === row.id);
    if (own.length > 0) {
      // Put back in ascending order, each lands where it was listed; if an edit by a previous release
      // removed shares with accounts meanwhile, the rest keep their order.
      const shares = [...(document.shares ?? [])];
      for (const { address_key: addressKey, id, person, role, position } of own)
        shares.splice(position, 0, { id, person, addressKey, role });
      document.shares = shares;
    }
    return { id: row.id, version: row.version, document, creatorAccountId: row.creator_account_id };
  });
}

/** The identities with these IDs, newest first. */
export async function findIdentities(
  db: Database,
  ids: readonly string[],
  reading: IdentityReading = {},
): Promise<IdentityRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("identities")
    .select(identityColumns)
    .where("id", "in", ids)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return toIdentities(db, rows, reading);
}

export async function findIdentity(db: Database, id: string): Promise<IdentityRow | undefined> {
  return (await findIdentities(db, [id]))[0];
}

/**
 * Every way the account reaches identities (access/identities.ts says how), as the `reach` table of
 * the queries built on it: an identity it created that lists itself among its admins, as admin; one
 * shared with it or with an address of it, with the role it was given; then every identity listing a
 * reached one among its admins or users, as admin only through admins all the way. An identity
 * reached in more than one way has a row for each.
 */
function withReach(db: Database, accountId: string) {
  // Both are in the WITH RECURSIVE list that PostgreSQL needs for the second: the first alone would
  // make it a plain WITH.
  return db
    .withRecursive("granted(identity_id, role)", (cte) =>
      cte
        .selectFrom("identities as own")
        .innerJoin("identity_members as self", (join) =>
          join
            .onRef("self.identity_id", "=", "own.id")
            .onRef("self.member_identity_id", "=", "own.id")
            .on("self.role", "=", "admin"),
        )
        .select(["own.id as identity_id", "self.role as role"])
        .where("own.creator_account_id", "=", accountId)
        .unionAll(
          db
            .selectFrom("identity_shares")
            .select(["identity_id", "role"])
            .where("account_id", "=", accountId),
        )
        .unionAll(
          db
            .selectFrom("identity_address_shares as share")
            .innerJoin("credentials as credential", (join) =>
              join
                .onRef("credential.provider_id", "=", "share.address_key")
                .on("credential.provider", "=", "email"),
            )
            .select(["share.identity_id", "share.role"])
            .where("credential.account_id", "=", accountId),
        ),
    )
    .withRecursive("reach(identity_id, role)", (cte) =>
      cte
        .selectFrom("granted")
        .select(["identity_id", "role"])
        // UNION, not UNION ALL: an identity met again in the same role ends the walk.
        .union((more) =>
          more
            .selectFrom("reach")
            .innerJoin("identity_members as member", "member.member_identity_id", "reach.identity_id")
            .select([
              "member.identity_id",
              sql<IdentityRole>`case when ${sql.ref("member.role")} = 'admin' and ${sql.ref("reach.role")} = 'admin' then 'admin' else 'user' end`.as(
                "role",
              ),
            ]),
        ),
    );
}

/** Every way the account reaches identities (withReach), in one query. */
export async function identitiesReachedBy(
  db: Database,
  accountId: string,
): Promise<{ identityId: string; role: IdentityRole }[]> {
  const rows = await withReach(db, accountId).selectFrom("reach").select(["identity_id", "role"]).execute();
  return rows.map((row) => ({ identityId: row.identity_id, role: row.role }));
}

/** An identity's membership of an organization, with how it stands with one of its applications. */
export type MembershipWithApp = MembershipRow & {
  /** Whether it signed in to the application already (applicationsUsed). */
  usedWithApp: boolean;
  /** Whether the account chose it for the application (findApplicationChoice). */
  chosenForApp: boolean;
};

/** An identity the account reaches, read (identitiesReadBy). */
export interface IdentityReached {
  identity: IdentityRow;
  roles: IdentityRole[];
  /** Its membership of the application's organization, when one was asked for and it is a member. */
  membership?: MembershipWithApp;
  /**
   * When one was asked for, what the application's organization blocked, by the note of the oldest
   * block in force: the identity, and the account (every identity of it).
   */
  blockNotes?: { identity?: string; account?: string };
}

/** The identities the account reaches, read, newest first (identitiesReadBy). */
const readIdentities = (db: Database, accountId: string) =>
  withReach(db, accountId)
    .selectFrom("reach")
    .innerJoin("identities", "identities.id", "reach.identity_id")
    .select(["identities.id", "identities.version", "identities.document", "identities.creator_account_id"])
    .select("reach.role")
    .orderBy("identities.created_at", "desc")
    .orderBy("identities.id");

const identitiesQuery = preparedQuery(readIdentities);

/** The same, each with how it stands with an organization's application (identitiesReadBy). */
const identitiesForAppQuery = preparedQuery(
  (db: Database, accountId: string, organizationId: string, applicationId: string) =>
    readIdentities(db, accountId)
      .leftJoin("identity_organizations as membership", (join) =>
        join
          .onRef("membership.identity_id", "=", "identities.id")
          .on("membership.organization_id", "=", organizationId),
      )
      .select((eb) => [
        "membership.id as membership_id",
        "membership.active as membership_active",
        eb.exists(usedByMembership(db, applicationId)).as("used_with_app"),
        eb
          .exists(
            eb
              .selectFrom("application_choices as choice")
              .select("choice.membership_id")
              .whereRef("choice.membership_id", "=", "membership.id")
              .where("choice.account_id", "=", accountId)
              .where("choice.application_id", "=", applicationId),
          )
          .as("chosen_for_app"),
        // The note of the oldest block in force there of the identity, and of the account.
        eb
          .selectFrom("blocks")
          .select("blocks.user_note")
          .where("blocks.organization_id", "=", organizationId)
          .where("blocks.lifted_at", "is", null)
          .whereRef("blocks.identity_id", "=", "identities.id")
          .orderBy("blocks.created_at")
          .limit(1)
          .as("identity_block_note"),
        accountBlocks(db, organizationId, accountId)
          .select("blocks.user_note")
          .limit(1)
          .as("account_block_note"),
      ]),
);

type RowOf<Query extends (...args: never[]) => Promise<{ rows: unknown[] }>> = Awaited<
  ReturnType<Query>
>["rows"][number];

/** A row of either: the application's columns only when one was asked for. */
type ReadIdentityRow = RowOf<typeof identitiesQuery> & Partial<RowOf<typeof identitiesForAppQuery>>;

/**
 * The identities the account reaches (withReach), read, each with its roles and, for an application,
 * its membership of the application's organization and the blocks in force there, newest first, in
 * one query.
 */
export async function identitiesReadBy(
  db: Database,
  accountId: string,
  reading: IdentityReading = {},
  app?: { organizationId: string; applicationId: string },
): Promise<IdentityReached[]> {
  // Asked at every sign-in's identity list: prepared (prepared.ts), one query for each shape.
  const { rows }: { rows: ReadIdentityRow[] } = app
    ? await identitiesForAppQuery(db, accountId, app.organizationId, app.applicationId)
    : await identitiesQuery(db, accountId);
  const roles = new Map<string, IdentityRole[]>();
  for (const row of rows) roles.set(row.id, [...(roles.get(row.id) ?? []), row.role]);
  const distinct = rows.filter((row, index) => index === 0 || rows[index - 1]?.id !== row.id);
  const identities = await toIdentities(db, distinct, reading);
  return identities.map((identity, index) => {
    const row = distinct[index];
    const membership =
      app && row?.membership_id && row.membership_active !== null && row.membership_active !== undefined
        ? {
            id: row.membership_id,
            identityId: identity.id,
            organizationId: app.organizationId,
            active: row.membership_active === 1,
            // SQLite answers 1 or 0, PostgreSQL true or false.
            usedWithApp: Number(row.used_with_app) === 1,
            chosenForApp: Number(row.chosen_for_app) === 1,
          }
        : undefined;
    const blockNotes = app && {
      ...(typeof row?.identity_block_note === "string" ? { identity: row.identity_block_note } : {}),
      ...(typeof row?.account_block_note === "string" ? { account: row.account_block_note } : {}),
    };
    return {
      identity,
      roles: roles.get(identity.id) ?? [],
      ...(membership ? { membership } : {}),
      ...(blockNotes ? { blockNotes } : {}),
    };
  });
}

/** How an account may use an identity with an organization's application (identityStanding). */
export interface IdentityStanding {
  /** The roles the account reaches the identity with. */
  roles: IdentityRole[];
  /** The identity's membership of the organization, if it is a member. */
  membership: MembershipRow | undefined;
  /** Whether the organization blocks the identity, or the account using it. */
  blocked: boolean;
  /**
   * The scopes the account agreed to give the application with this membership (findApplicationChoice);
   * undefined when it has not chosen the identity for the application.
   */
  agreedScopes: string[] | undefined;
  /** Whether the identity has signed in to the application as this membership before. */
  usesApplication: boolean;
  /** When the account is to be deleted, if its person asked for that. */
  accountDeletionDueAt: number | undefined;
}

/** Whether the query's `membership` has signed in to the application: for an `exists`. */
const usedByMembership = (db: Database, applicationId: string) =>
  db
    .selectFrom("identity_applications as use")
    .select("use.membership_id")
    .where("use.membership_id", "=", sql.ref<string>("membership.id"))
    .where("use.application_id", "=", applicationId);

const standingQuery = preparedQuery(
  (db: Database, accountId: string, identityId: string, organizationId: string, applicationId: string) =>
    withReach(db, accountId)
      .selectFrom("reach")
      .leftJoin("identity_organizations as membership", (join) =>
        join
          .onRef("membership.identity_id", "=", "reach.identity_id")
          .on("membership.organization_id", "=", organizationId),
      )
      .select((eb) => [
        "reach.role",
        "membership.id",
        "membership.active",
        eb.exists(bindingBlocks(db, organizationId, identityId, accountId)).as("blocked"),
        eb
          .selectFrom("application_choices as choice")
          .select("choice.scopes")
          .where("choice.account_id", "=", accountId)
          .where("choice.application_id", "=", applicationId)
          .whereRef("choice.membership_id", "=", "membership.id")
          .as("agreed_scopes"),
        eb.exists(usedByMembership(db, applicationId)).as("uses_application"),
        eb
          .selectFrom("accounts as account")
          .select("account.deletion_due_at")
          .where("account.id", "=", accountId)
          .as("deletion_due_at"),
      ])
      .where("reach.identity_id", "=", identityId),
);

/**
 * How the account may use one identity with an organization's application, in one query: the roles
 * it reaches the identity with (withReach; none, undefined: it may not use it), the identity's
 * membership there, whether the organization blocks it (isBlocked), what was agreed with it, and
 * whether the account waits to be deleted.
 */
export async function identityStanding(
  db: Database,
  accountId: string,
  identityId: string,
  { organizationId, applicationId }: { organizationId: string; applicationId: string },
): Promise<IdentityStanding | undefined> {
  // Asked at every identity choice and finish of a sign-in: prepared (prepared.ts).
  const { rows } = await standingQuery(db, accountId, identityId, organizationId, applicationId);
  const [first] = rows;
  if (!first) return undefined;
  return {
    roles: rows.map((row) => row.role),
    membership:
      first.id === null || first.active === null
        ? undefined
        : { id: first.id, identityId, organizationId, active: first.active === 1 },
    // SQLite answers 1 or 0, PostgreSQL true or false.
    blocked: Number(first.blocked) === 1,
    agreedScopes: first.agreed_scopes === null ? undefined : splitScopes(first.agreed_scopes),
    usesApplication: Number(first.uses_application) === 1,
    accountDeletionDueAt: first.deletion_due_at ?? undefined,
  };
}

const membershipColumns = ["id", "identity_id", "organization_id", "active"] as const;
export const toMembership = (row: {
  id: string;
  identity_id: string;
  organization_id: string;
  active: number;
}) => ({
  id: row.id,
  identityId: row.identity_id,
  organizationId: row.organization_id,
  active: row.active === 1,
});

export async function findMembershipById(db: Database, id: string): Promise<MembershipRow | undefined> {
  const row = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toMembership(row);
}

export async function membershipsIn(
  db: Database,
  organizationId: string,
  identityIds: readonly string[],
): Promise<MembershipRow[]> {
  if (identityIds.length === 0) return [];
  const rows = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("organization_id", "=", organizationId)
    .where("identity_id", "in", identityIds)
    .execute();
  return rows.map(toMembership);
}

/** The memberships any of the identities has in any of the organizations, in one query. */
export async function membershipsAmong(
  db: Database,
  identityIds: readonly string[],
  organizationIds: readonly string[],
): Promise<MembershipRow[]> {
  if (identityIds.length === 0 || organizationIds.length === 0) return [];
  const rows = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("identity_id", "in", identityIds)
    .where("organization_id", "in", organizationIds)
    .execute();
  return rows.map(toMembership);
}

/** The identity's membership in the organization, created (active, with a fresh scoped ID) if missing. */
export async function ensureMembership(
  db: Database,
  membership: MembershipRow,
  now: number,
): Promise<{ membership: MembershipRow; created: boolean }> {
  return inTransaction(db, async (trx) => {
    // Written first, the identity's row stays locked until the words are in: a change of its names
    // meanwhile waits, and then replaces these words too.
    await trx
      .updateTable("identities")
      .set((eb) => ({ version: eb.ref("version") }))
      .where("id", "=", membership.identityId)
      .execute();
    const inserted = await trx
      .insertInto("identity_organizations")
      .values({
        id: membership.id,
        identity_id: membership.identityId,
        organization_id: membership.organizationId,
        active: membership.active ? 1 : 0,
        created_at: now,
      })
      .onConflict((conflict) => conflict.columns(["identity_id", "organization_id"]).doNothing())
      .executeTakeFirst();
    const created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    const [stored] = await membershipsIn(trx, membership.organizationId, [membership.identityId]);
    if (!stored) throw new Error("membership vanished while it was being created");
    if (created) {
      const identity = await trx
        .selectFrom("identities")
        .select("document")
        .where("id", "=", membership.identityId)
        .executeTakeFirstOrThrow();
      const joined = { id: stored.id, organization_id: stored.organizationId, created_at: now };
      await insertMemberWords(
        trx,
        memberWordRows([joined], JSON.parse(identity.document) as IdentityDocument),
      );
    }
    return { membership: stored, created };
  });
}

export async function applicationsUsed(
  db: Database,
  membershipIds: readonly string[],
): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  if (membershipIds.length === 0) return used;
  const rows = await db
    .selectFrom("identity_applications")
    .select(["membership_id", "application_id"])
    .where("membership_id", "in", membershipIds)
    .execute();
  for (const row of rows)
    used.set(row.membership_id, [...(used.get(row.membership_id) ?? []), row.application_id]);
  return used;
}

/**
 * Records that the identity signed in to the application: when it last signed in to the organization,
 * and that it uses the application, unless the identity's standing said so already (`usedBefore`).
 */
export async function recordApplicationUse(
  db: Database,
  use: { membershipId: string; applicationId: string; usedBefore: boolean },
  now: number,
): Promise<void> {
  await lastSignedInQuery(db, use.membershipId, now);
  if (use.usedBefore) return;
  await firstUseQuery(db, use.membershipId, use.applicationId, now);
}

// Written at every sign-in's finish: prepared (prepared.ts).
const lastSignedInQuery = preparedQuery((db: Database, membershipId: string, now: number) =>
  db.updateTable("identity_organizations").set({ last_signed_in_at: now }).where("id", "=", membershipId),
);

const firstUseQuery = preparedQuery(
  (db: Database, membershipId: string, applicationId: string, now: number) =>
    db
      .insertInto("identity_applications")
      .values({ membership_id: membershipId, application_id: applicationId, created_at: now })
      .onConflict((conflict) => conflict.columns(["membership_id", "application_id"]).doNothing()),
);

export async function membershipsOf(db: Database, identityId: string): Promise<MembershipRow[]> {
  const rows = await db
    .selectFrom("identity_organizations")
    .select(membershipColumns)
    .where("identity_id", "=", identityId)
    .orderBy("created_at")
    .execute();
  return rows.map(toMembership);
}

export async function setMembershipActive(db: Database, id: string, active: boolean): Promise<void> {
  await db
    .updateTable("identity_organizations")
    .set({ active: active ? 1 : 0 })
    .where("id", "=", id)
    .execute();
}

/** Leaving an organization forgets the scoped ID: joining again gives a new one. */
export async function deleteMembership(db: Database, id: string): Promise<void> {
  await db.deleteFrom("identity_organizations").where("id", "=", id).execute();
}
