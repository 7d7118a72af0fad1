import type { ExpressionBuilder } from "kysely";
import type { Database } from "./database.ts";
import type { Schema } from "./schema.ts";
import { preparedQuery } from "./prepared.ts";

export interface OidcModelRow {
  payload: string;
  consumedAt: number | null;
}

export interface OidcModelWrite {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: number | null;
}

const upsert = preparedQuery(
  (
    db: Database,
    model: string,
    id: string,
    payload: string,
    grantId: string | null,
    uid: string | null,
    userCode: string | null,
    expiresAt: number | null,
  ) => {
    const values = { payload, grant_id: grantId, uid, user_code: userCode, expires_at: expiresAt };
    return db
      .insertInto("oidc_models")
      .values({ model, id, consumed_at: null, ...values })
      .onConflict((conflict) => conflict.columns(["model", "id"]).doUpdateSet(values));
  },
);

export function upsertOidcModel(db: Database, row: OidcModelWrite): Promise<unknown> {
  return upsert(db, row.model, row.id, row.payload, row.grantId, row.uid, row.userCode, row.expiresAt);
}

/** One prepared lookup for each column an artifact is found by. */
const findBy = (column: "id" | "uid" | "user_code") =>
  preparedQuery((db: Database, model: string, value: string, now: number) =>
    db
      .selectFrom("oidc_models")
      .select(["payload", "consumed_at"])
      .where("model", "=", model)
      .where(column, "=", value)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)])),
  );

const finders = { id: findBy("id"), uid: findBy("uid"), user_code: findBy("user_code") };

async function findWhere(
  db: Database,
  model: string,
  column: keyof typeof finders,
  value: string,
  now: number,
): Promise<OidcModelRow | undefined> {
  const [row] = (await finders[column](db, model, value, now)).rows;
  return row && { payload: row.payload, consumedAt: row.consumed_at };
}

/** The models a presented token can be: introspection and revocation look it up as each at once. */
export const tokenModels = ["AccessToken", "ClientCredentials", "RefreshToken"] as const;

const findTokens = preparedQuery((db: Database, id: string, now: number) =>
  db
    .selectFrom("oidc_models")
    .select(["model", "payload", "consumed_at"])
    .where("model", "in", tokenModels)
    .where("id", "=", id)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)])),
);

/** The unexpired tokens stored under `id`, by model (see `tokenModels`). */
export async function findTokensById(
  db: Database,
  id: string,
  now: number,
): Promise<Map<string, OidcModelRow>> {
  const { rows } = await findTokens(db, id, now);
  return new Map(rows.map((row) => [row.model, { payload: row.payload, consumedAt: row.consumed_at }]));
}

export const findOidcModel = (db: Database, model: string, id: string, now: number) =>
  findWhere(db, model, "id", id, now);
export const findOidcModelByUid = (db: Database, model: string, uid: string, now: number) =>
  findWhere(db, model, "uid", uid, now);
export const findOidcModelByUserCode = (db: Database, model: string, userCode: string, now: number) =>
  findWhere(db, model, "user_code", userCode, now);

const consume = preparedQuery((db: Database, model: string, id: string, now: number) =>
  db
    .updateTable("oidc_models")
    .set({ consumed_at: now })
    .where("model", "=", model)
    .where("id", "=", id)
    .where("consumed_at", "is", null),
);

/**
 * Marks an artifact consumed; false when it was consumed already, or is gone: of requests consuming
 * it at the same moment, to one instance or several, one gets true.
 */
export async function consumeOidcModel(
  db: Database,
  model: string,
  id: string,
  now: number,
): Promise<boolean> {
  const { numAffectedRows } = await consume(db, model, id, now);
  return Number(numAffectedRows ?? 0) > 0;
}

const destroy = preparedQuery((db: Database, model: string, id: string) =>
  db.deleteFrom("oidc_models").where("model", "=", model).where("id", "=", id),
);

export function destroyOidcModel(db: Database, model: string, id: string): Promise<unknown> {
  return destroy(db, model, id);
}

const destroyGrant = preparedQuery((db: Database, grantId: string) =>
  db.deleteFrom("oidc_models").where("grant_id", "=", grantId),
);

/** Removes every artifact of a grant, whichever model it is (codes, access and refresh tokens). */
export function destroyOidcGrant(db: Database, grantId: string): Promise<unknown> {
  return destroyGrant(db, grantId);
}

export async function deleteExpiredOidcModels(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("oidc_models").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Sessions whose account is one of these: the engine keeps a session's `accountId` in its payload as
 * JSON without white space; IDs hold no LIKE wildcards.
 */
const sessionOf = (eb: ExpressionBuilder<Schema, "oidc_models">, accountIds: readonly string[]) =>
  eb.and([
    eb("model", "=", "Session"),
    eb.or(accountIds.map((id) => eb("payload", "like", `%"accountId":${JSON.stringify(id)}%`))),
  ]);

/**
 * Ends the single sign-on sessions of these accounts (earlier versions': of these organization-scoped
 * identities), returning their payloads so that the apps they were part of are told.
 */
export async function destroySessionsOf(db: Database, accountIds: readonly string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const ended = await db
    .deleteFrom("oidc_models")
    .where((eb) => sessionOf(eb, accountIds))
    .returning("payload")
    .execute();
  return ended.map((row) => row.payload);
}

/** The payloads of the single sign-on sessions of these accounts. */
export async function sessionsOf(db: Database, accountIds: readonly string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom("oidc_models")
    .select("payload")
    .where((eb) => sessionOf(eb, accountIds))
    .execute();
  return rows.map((row) => row.payload);
}

/**
 * Removes one artifact (a session, a grant): its payload, or undefined when it was gone already, so
 * that of two requests removing it at once only one goes on.
 */
export async function takeOidcModel(db: Database, model: string, key: string): Promise<string | undefined> {
  const [ended] = (await take(db, model, key)).rows;
  return ended?.payload;
}

// Every sign-in's resume takes its interaction: prepared (prepared.ts).
const take = preparedQuery((db: Database, model: string, key: string) =>
  db.deleteFrom("oidc_models").where("model", "=", model).where("id", "=", key).returning("payload"),
);

/** The single sign-on sessions of the account, with the key each is stored under. */
export async function sessionsWithKeysOf(
  db: Database,
  accountId: string,
): Promise<{ key: string; payload: string }[]> {
  const rows = await db
    .selectFrom("oidc_models")
    .select(["id", "payload"])
    .where((eb) => sessionOf(eb, [accountId]))
    .execute();
  return rows.map((row) => ({ key: row.id, payload: row.payload }));
}
