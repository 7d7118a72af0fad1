import type { Database } from "./database.ts";

// What an account's export reads that no other part of Vrata reads in this shape: its credentials with
// when they last changed, the memberships of its identities with their dates, the blocks that bind it,
// the grants its apps hold, its remembered app choices and the clients they name.

export interface ExportedCredentialRow {
  provider: string;
  displayName: string;
  data: string;
  createdAt: number;
  updatedAt: number;
}

export async function credentialRowsOf(db: Database, accountId: string): Promise<ExportedCredentialRow[]> {
  const rows = await db
    .selectFrom("credentials")
    .select(["provider", "display_name", "data", "created_at", "updated_at"])
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    provider: row.provider,
    displayName: row.display_name,
    data: row.data,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

export async function accountCreatedAt(db: Database, accountId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("accounts")
    .select("created_at")
    .where("id", "=", accountId)
    .executeTakeFirst();
  return row && row.created_at;
}

export interface ExportedMembershipRow {
  id: string;
  identityId: string;
  organizationId: string;
  active: boolean;
  createdAt: number;
  lastSignedInAt: number | null;
  applicationIds: string[];
}

/** The memberships of these identities, oldest first, with the applications each used. */
export async function membershipRowsOf(
  db: Database,
  identityIds: readonly string[],
): Promise<ExportedMembershipRow[]> {
  if (identityIds.length === 0) return [];
  const rows = await db
    .selectFrom("identity_organizations")
    .select(["id", "identity_id", "organization_id", "active", "created_at", "last_signed_in_at"])
    .where("identity_id", "in", identityIds)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const used =
    rows.length === 0
      ? []
      : await db
          .selectFrom("identity_applications")
          .select(["membership_id", "application_id"])
          .where(
            "membership_id",
            "in",
            rows.map((row) => row.id),
          )
          .orderBy("created_at")
          .execute();
  return rows.map((row) => ({
    id: row.id,
    identityId: row.identity_id,
    organizationId: row.organization_id,
    active: Boolean(row.active),
    createdAt: row.created_at,
    lastSignedInAt: row.last_signed_in_at === null ? null : row.last_signed_in_at,
    applicationIds: used.filter((use) => use.membership_id === row.id).map((use) => use.application_id),
  }));
}

export interface ExportedBlockRow {
  organizationId: string;
  identityId: string;
  scope: string;
  userNote: string;
  createdAt: number;
}

/** The blocks in force on these identities or covering this account: only what the person is told. */
export async function blockRowsBinding(
  db: Database,
  identityIds: readonly string[],
  accountId: string,
): Promise<ExportedBlockRow[]> {
  const rows = await db
    .selectFrom("blocks")
    .select(["organization_id", "identity_id", "scope", "user_note", "created_at"])
    .where("lifted_at", "is", null)
    .where((eb) =>
      eb.or([
        ...(identityIds.length > 0 ? [eb("identity_id", "in", identityIds)] : []),
        eb(
          "id",
          "in",
          eb.selectFrom("block_accounts").select("block_id").where("account_id", "=", accountId),
        ),
      ]),
    )
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    organizationId: row.organization_id,
    identityId: row.identity_id,
    scope: row.scope,
    userNote: row.user_note,
    createdAt: row.created_at,
  }));
}

export interface ExportedGrantRow {
  /** Only to find the engine's grant by: never shown. */
  grantId: string;
  identityId: string;
  createdAt: number;
}

/** The grants issued to the account, oldest first. */
export async function grantRowsOf(db: Database, accountId: string): Promise<ExportedGrantRow[]> {
  const rows = await db
    .selectFrom("grant_accounts")
    .select(["grant_id", "identity_id", "created_at"])
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    grantId: row.grant_id,
    identityId: row.identity_id,
    createdAt: row.created_at,
  }));
}

/** The engine's stored grants of these stored IDs (keyed hashes), by ID. */
export async function grantPayloads(
  db: Database,
  storedIds: readonly string[],
): Promise<Map<string, string>> {
  if (storedIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("oidc_models")
    .select(["id", "payload"])
    .where("model", "=", "Grant")
    .where("id", "in", storedIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.payload]));
}

export interface ExportedChoiceRow {
  organizationId: string;
  applicationId: string;
  membershipId: string;
  scopes: string;
  chosenAt: number;
}

export async function applicationChoicesOf(db: Database, accountId: string): Promise<ExportedChoiceRow[]> {
  const rows = await db
    .selectFrom("application_choices")
    .select(["organization_id", "application_id", "membership_id", "scopes", "chosen_at"])
    .where("account_id", "=", accountId)
    .orderBy("chosen_at")
    .execute();
  return rows.map((row) => ({
    organizationId: row.organization_id,
    applicationId: row.application_id,
    membershipId: row.membership_id,
    scopes: row.scopes,
    chosenAt: row.chosen_at,
  }));
}

/** The organization and application of each of these clients. */
export async function clientOwners(
  db: Database,
  clientIds: readonly string[],
): Promise<Map<string, { organizationId: string; applicationId: string }>> {
  if (clientIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("oauth_clients")
    .select(["id", "organization_id", "application_id"])
    .where("id", "in", clientIds)
    .execute();
  return new Map(
    rows.map((row) => [row.id, { organizationId: row.organization_id, applicationId: row.application_id }]),
  );
}
