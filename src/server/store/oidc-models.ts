import type { Database } from "./database.ts";

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

export function upsertOidcModel(db: Database, row: OidcModelWrite): Promise<unknown> {
  const values = {
    payload: row.payload,
    grant_id: row.grantId,
    uid: row.uid,
    user_code: row.userCode,
    expires_at: row.expiresAt,
  };
  return db
    .insertInto("oidc_models")
    .values({ model: row.model, id: row.id, consumed_at: null, ...values })
    .onConflict((conflict) => conflict.columns(["model", "id"]).doUpdateSet(values))
    .execute();
}

async function findWhere(
  db: Database,
  model: string,
  column: "id" | "uid" | "user_code",
  value: string,
  now: number,
): Promise<OidcModelRow | undefined> {
  const row = await db
    .selectFrom("oidc_models")
    .select(["payload", "consumed_at"])
    .where("model", "=", model)
    .where(column, "=", value)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .executeTakeFirst();
  return row && { payload: row.payload, consumedAt: row.consumed_at };
}

/** The unexpired artifacts of any of `models` stored under `id`, by model. */
export async function findOidcModelsById(
  db: Database,
  models: readonly string[],
  id: string,
  now: number,
): Promise<Map<string, OidcModelRow>> {
  const rows = await db
    .selectFrom("oidc_models")
    .select(["model", "payload", "consumed_at"])
    .where("model", "in", models)
    .where("id", "=", id)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .execute();
  return new Map(rows.map((row) => [row.model, { payload: row.payload, consumedAt: row.consumed_at }]));
}

export const findOidcModel = (db: Database, model: string, id: string, now: number) =>
  findWhere(db, model, "id", id, now);
export const findOidcModelByUid = (db: Database, model: string, uid: string, now: number) =>
  findWhere(db, model, "uid", uid, now);
export const findOidcModelByUserCode = (db: Database, model: string, userCode: string, now: number) =>
  findWhere(db, model, "user_code", userCode, now);

export function consumeOidcModel(db: Database, model: string, id: string, now: number): Promise<unknown> {
  return db
    .updateTable("oidc_models")
    .set({ consumed_at: now })
    .where("model", "=", model)
    .where("id", "=", id)
    .execute();
}

export function destroyOidcModel(db: Database, model: string, id: string): Promise<unknown> {
  return db.deleteFrom("oidc_models").where("model", "=", model).where("id", "=", id).execute();
}

/** Removes every artifact of a grant, whichever model it is (codes, access and refresh tokens). */
export function destroyOidcGrant(db: Database, grantId: string): Promise<unknown> {
  return db.deleteFrom("oidc_models").where("grant_id", "=", grantId).execute();
}

export async function deleteExpiredOidcModels(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("oidc_models").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
