import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";

export interface FlowRow {
  id: string;
  clientId: string;
  organizationId: string;
  applicationId: string;
  state: string;
  version: number;
  expiresAt: number;
}

const flowColumns = [
  "flow.id",
  "flow.client_id",
  "flow.organization_id",
  "flow.application_id",
  "flow.state",
  "flow.version",
  "flow.expires_at",
] as const;

const toFlowRow = (row: {
  id: string;
  client_id: string;
  organization_id: string;
  application_id: string;
  state: string;
  version: number;
  expires_at: number;
}): FlowRow => ({
  id: row.id,
  clientId: row.client_id,
  organizationId: row.organization_id,
  applicationId: row.application_id,
  state: row.state,
  version: row.version,
  expiresAt: row.expires_at,
});

// Every step of every sign-in reads its flow and saves it: those queries are prepared (prepared.ts).
const findFlowQuery = preparedQuery((db: Database, id: string, now: number) =>
  db
    .selectFrom("flows as flow")
    .select(flowColumns)
    .where("flow.id", "=", id)
    .where("flow.expires_at", ">", now),
);

export async function findFlow(db: Database, id: string, now: number): Promise<FlowRow | undefined> {
  const [row] = (await findFlowQuery(db, id, now)).rows;
  return row && toFlowRow(row);
}

const findFlowWithSessionQuery = preparedQuery((db: Database, id: string, secretHash: string, now: number) =>
  db
    .selectFrom("flows as flow")
    .leftJoin("sessions as session", (join) =>
      join
        .onRef("session.flow_id", "=", "flow.id")
        .on("session.secret_hash", "=", secretHash)
        .on("session.active", "=", 1)
        .on("session.expires_at", ">", now),
    )
    .select([...flowColumns, "session.id as session_id", "session.account_id as session_account_id"])
    .where("flow.id", "=", id)
    .where("flow.expires_at", ">", now),
);

/**
 * The flow, and with it in the same query the live session of that flow whose secret hashes to
 * `secretHash` (the browser's cookie), if there is one: what findFlow and findActiveSession would say.
 */
export async function findFlowWithSession(
  db: Database,
  id: string,
  secretHash: string,
  now: number,
): Promise<{ flow: FlowRow; session: SessionRow | undefined } | undefined> {
  const [row] = (await findFlowWithSessionQuery(db, id, secretHash, now)).rows;
  if (!row) return undefined;
  const { session_id: sessionId, session_account_id: accountId } = row;
  return {
    flow: toFlowRow(row),
    session:
      sessionId === null || accountId === null ? undefined : { id: sessionId, accountId, flowId: row.id },
  };
}

/**
 * Stores a new flow; when two requests race to create it, the first one's row stays and the loser
 * gets false (it must read that row).
 */
export async function insertFlow(db: Database, flow: FlowRow, now: number): Promise<boolean> {
  const { rows } = await insertFlowQuery(
    db,
    flow.id,
    flow.clientId,
    flow.organizationId,
    flow.applicationId,
    flow.state,
    flow.version,
    now,
    flow.expiresAt,
  );
  return rows.length > 0;
}

const insertFlowQuery = preparedQuery(
  (
    db: Database,
    id: string,
    clientId: string,
    organizationId: string,
    applicationId: string,
    state: string,
    version: number,
    now: number,
    expiresAt: number,
  ) =>
    db
      .insertInto("flows")
      .values({
        id,
        client_id: clientId,
        organization_id: organizationId,
        application_id: applicationId,
        state,
        version,
        created_at: now,
        expires_at: expiresAt,
      })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .returning("id"),
);

const updateFlowQuery = preparedQuery(
  (db: Database, id: string, version: number, nextVersion: number, state: string) =>
    db
      .updateTable("flows")
      .set({ state, version: nextVersion })
      .where("id", "=", id)
      .where("version", "=", version),
);

/** Saves the state if nobody saved since it was read; false when a concurrent step won. */
export async function updateFlowState(
  db: Database,
  id: string,
  version: number,
  state: string,
): Promise<boolean> {
  const { numAffectedRows } = await updateFlowQuery(db, id, version, version + 1, state);
  return Number(numAffectedRows ?? 0) === 1;
}

export async function deleteExpiredFlows(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("flows").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SessionRow {
  id: string;
  accountId: string;
  flowId: string;
}

export async function insertSession(
  db: Database,
  session: SessionRow & { secretHash: string; expiresAt: number },
  now: number,
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({
      id: session.id,
      secret_hash: session.secretHash,
      account_id: session.accountId,
      flow_id: session.flowId,
      active: 1,
      created_at: now,
      expires_at: session.expiresAt,
    })
    .execute();
}

export async function findActiveSession(
  db: Database,
  secretHash: string,
  now: number,
): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom("sessions")
    .select(["id", "account_id", "flow_id"])
    .where("secret_hash", "=", secretHash)
    .where("active", "=", 1)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, flowId: row.flow_id };
}

export async function deactivateSessions(db: Database, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("sessions").set({ active: 0 }).where("id", "in", ids).execute();
}

/**
 * Ends the account's flow sessions (what lets a browser go on with a sign-in it proved) but these:
 * a sign-in under way elsewhere cannot finish, nor act for the account meanwhile.
 */
export async function deactivateSessionsOfAccount(
  db: Database,
  accountId: string,
  kept: readonly string[],
): Promise<void> {
  let query = db
    .updateTable("sessions")
    .set({ active: 0 })
    .where("account_id", "=", accountId)
    .where("active", "=", 1);
  if (kept.length > 0) query = query.where("id", "not in", kept);
  await query.execute();
}

// Written at every sign-in's finish: prepared (prepared.ts).
const upsertGrantAccount = preparedQuery(
  (
    db: Database,
    grantId: string,
    accountId: string,
    identityId: string,
    sessionId: string | null,
    now: number,
  ) => {
    const values = { account_id: accountId, identity_id: identityId, session_id: sessionId };
    return db
      .insertInto("grant_accounts")
      .values({ grant_id: grantId, ...values, created_at: now })
      .onConflict((conflict) => conflict.column("grant_id").doUpdateSet(values));
  },
);

export async function insertGrantAccount(
  db: Database,
  grant: { grantId: string; accountId: string; identityId: string; sessionId: string | null },
  now: number,
): Promise<void> {
  await upsertGrantAccount(db, grant.grantId, grant.accountId, grant.identityId, grant.sessionId, now);
}

const grantAccount = preparedQuery((db: Database, grantId: string) =>
  db
    .selectFrom("grant_accounts")
    .select(["account_id", "identity_id", "session_id"])
    .where("grant_id", "=", grantId),
);

export async function findGrantAccount(
  db: Database,
  grantId: string,
): Promise<{ accountId: string; identityId: string; sessionId: string | null } | undefined> {
  const [row] = (await grantAccount(db, grantId)).rows;
  return row && { accountId: row.account_id, identityId: row.identity_id, sessionId: row.session_id };
}

/** Every grant made for the account, with the identity it speaks for and when it was made, newest first. */
export async function grantsOfAccount(
  db: Database,
  accountId: string,
): Promise<{ grantId: string; identityId: string; createdAt: number }[]> {
  const rows = await db
    .selectFrom("grant_accounts")
    .select(["grant_id", "identity_id", "created_at"])
    .where("account_id", "=", accountId)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    grantId: row.grant_id,
    identityId: row.identity_id,
    createdAt: row.created_at,
  }));
}
