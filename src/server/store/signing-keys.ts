import type { Database } from "./database.ts";

export interface SigningKeyRow {
  kid: string;
  alg: string;
  /** The private JWK, sealed. */
  privateJwk: string;
  generation: number;
  createdAt: number;
  activatesAt: number;
  retiredAt: number | null;
  removesAt: number | null;
}

export type NewSigningKey = Pick<SigningKeyRow, "kid" | "alg" | "privateJwk" | "generation" | "activatesAt">;

/** Every stored key, newest generation of each algorithm first. */
export async function signingKeyRows(db: Database): Promise<SigningKeyRow[]> {
  const rows = await db
    .selectFrom("signing_keys")
    .selectAll()
    .orderBy("alg")
    .orderBy("generation", "desc")
    .execute();
  return rows.map((row) => ({
    kid: row.kid,
    alg: row.alg,
    privateJwk: row.private_jwk,
    generation: row.generation,
    createdAt: row.created_at,
    activatesAt: row.activates_at,
    retiredAt: row.retired_at,
    removesAt: row.removes_at,
  }));
}

/** Raised inside the transaction to undo the keys already added when another generation was there first. */
class GenerationTaken extends Error {}

/**
 * Adds the keys, all or none: none when another instance has added one of their generations first
 * (it waits for that instance's transaction, then finds the generation taken). Says whether they were.
 */
export async function insertSigningKeys(db: Database, keys: NewSigningKey[], now: number): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      for (const key of keys) {
        const { numInsertedOrUpdatedRows } = await trx
          .insertInto("signing_keys")
          .values({
            kid: key.kid,
            alg: key.alg,
            private_jwk: key.privateJwk,
            generation: key.generation,
            created_at: now,
            activates_at: key.activatesAt,
            retired_at: null,
            removes_at: null,
          })
          .onConflict((conflict) => conflict.columns(["alg", "generation"]).doNothing())
          .executeTakeFirst();
        if (numInsertedOrUpdatedRows === 0n) throw new GenerationTaken();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof GenerationTaken) return false;
    throw error;
  }
}

/** Records when a key stopped signing and when it goes; the first instance to do so decides both. */
export async function retireSigningKey(
  db: Database,
  kid: string,
  retiredAt: number,
  removesAt: number,
): Promise<void> {
  await db
    .updateTable("signing_keys")
    .set({ retired_at: retiredAt, removes_at: removesAt })
    .where("kid", "=", kid)
    .where("removes_at", "is", null)
    .execute();
}

/** Deletes the retired keys whose tokens have all expired by `now`; returns how many. */
export async function deleteRemovedSigningKeys(db: Database, now: number): Promise<number> {
  const { numDeletedRows } = await db
    .deleteFrom("signing_keys")
    .where("removes_at", "<=", now)
    .executeTakeFirst();
  return Number(numDeletedRows);
}

export async function updateSigningKeyJwk(db: Database, kid: string, privateJwk: string): Promise<void> {
  await db.updateTable("signing_keys").set({ private_jwk: privateJwk }).where("kid", "=", kid).execute();
}
