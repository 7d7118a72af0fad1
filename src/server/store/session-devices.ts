import { newId } from "../ids.ts";
import type { Database } from "./database.ts";
import { preparedQuery } from "./prepared.ts";

/** A browser where an account is signed in, with its live single sign-on session's payload. */
export interface SessionDevice {
  id: string;
  sessionKey: string;
  userAgent: string;
  signedInAt: number;
  lastActiveAt: number;
  /** The engine's session, as stored (JSON). */
  payload: string;
}

// Written at every sign-in: prepared (prepared.ts).
const upsertSessionDevice = preparedQuery(
  (db: Database, sessionKey: string, id: string, accountId: string, userAgent: string, now: number) =>
    db
      .insertInto("session_devices")
      .values({
        session_key: sessionKey,
        id,
        account_id: accountId,
        user_agent: userAgent,
        signed_in_at: now,
        last_active_at: now,
      })
      .onConflict((conflict) =>
        conflict
          .column("session_key")
          .doUpdateSet({ account_id: accountId, user_agent: userAgent, last_active_at: now }),
      ),
);

/** Notes that the session stored under `sessionKey` was used by this browser now (made, if it is new). */
export async function recordSessionDevice(
  db: Database,
  device: { sessionKey: string; accountId: string; userAgent: string },
  now: number,
): Promise<void> {
  const { sessionKey, accountId, userAgent } = device;
  await upsertSessionDevice(db, sessionKey, newId(), accountId, userAgent, now);
}

/** The account's browsers whose session is still live, most recently used first. */
export async function liveSessionDevices(
  db: Database,
  accountId: string,
  now: number,
): Promise<SessionDevice[]> {
  const rows = await db
    .selectFrom("session_devices as device")
    .innerJoin("oidc_models as session", (join) =>
      join.onRef("session.id", "=", "device.session_key").on("session.model", "=", "Session"),
    )
    .select([
      "device.id",
      "device.session_key",
      "device.user_agent",
      "device.signed_in_at",
      "device.last_active_at",
      "session.payload",
    ])
    .where("device.account_id", "=", accountId)
    .where((eb) => eb.or([eb("session.expires_at", "is", null), eb("session.expires_at", ">", now)]))
    .orderBy("device.last_active_at", "desc")
    .orderBy("device.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    sessionKey: row.session_key,
    userAgent: row.user_agent,
    signedInAt: row.signed_in_at,
    lastActiveAt: row.last_active_at,
    payload: row.payload,
  }));
}

/** The key of the account's session that the account page names `id`. */
export async function findSessionKey(
  db: Database,
  accountId: string,
  id: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("session_devices")
    .select("session_key")
    .where("account_id", "=", accountId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.session_key;
}

export async function deleteSessionDevices(db: Database, sessionKeys: readonly string[]): Promise<void> {
  if (sessionKeys.length === 0) return;
  await db.deleteFrom("session_devices").where("session_key", "in", sessionKeys).execute();
}

/** Forgets the browsers whose session has ended or expired (and was since removed from the store). */
export async function deleteEndedSessionDevices(db: Database): Promise<number> {
  const result = await db
    .deleteFrom("session_devices")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("oidc_models")
            .select("oidc_models.id")
            .where("oidc_models.model", "=", "Session")
            .whereRef("oidc_models.id", "=", "session_devices.session_key"),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
