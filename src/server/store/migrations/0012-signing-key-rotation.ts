import { sql, type Kysely } from "kysely";

/**
 * Signing keys get a lifecycle: each is a generation of its algorithm, signs from `activates_at`,
 * and once retired by the next generation stays published until `removes_at`. Two instances starting
 * a rotation at once both try to add the same next generation: the unique index lets one succeed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("signing_keys")
    .addColumn("generation", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("signing_keys")
    .addColumn("activates_at", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("signing_keys").addColumn("removes_at", "bigint").execute();

  // Instances that started together may have made two keys of one algorithm: the newer one signs,
  // as it did before, and the older one is retired like any older generation.
  const { rows } = await sql<{ kid: string; alg: string; created_at: number | string }>`
    select kid, alg, created_at from signing_keys order by alg, created_at, kid`.execute(db);
  const generations = new Map<string, number>();
  for (const row of rows) {
    const generation = (generations.get(row.alg) ?? 0) + 1;
    generations.set(row.alg, generation);
    await sql`update signing_keys set generation = ${generation}, activates_at = ${Number(row.created_at)}
      where kid = ${row.kid}`.execute(db);
  }
  await db.schema
    .createIndex("signing_keys_generation")
    .on("signing_keys")
    .columns(["alg", "generation"])
    .unique()
    .execute();
}
