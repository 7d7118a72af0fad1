import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CompiledQuery, Kysely, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite, type SqliteStore } from "./sqlite.ts";

describe("SQLite store", () => {
  let dir: string;
  let store: SqliteStore;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-sqlite-"));
    store = openSqlite(path.join(dir, "direct.sqlite"));
    db = new Kysely({ dialect: new SqliteDialect({ database: store.database }) });
    await db.executeQuery(CompiledQuery.raw("create table notes (id integer primary key, text text)"));
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const insert = (text: string) => CompiledQuery.raw("insert into notes (text) values (?)", [text]);
  const select = CompiledQuery.raw("select id, text from notes order by id");

  it("answer a query at once with what Kysely's dialect answers for it", async () => {
    const throughKysely = await db.executeQuery(insert("first"));
    const direct = store.runUnlessInTransaction(insert("second"));
    expect(throughKysely).toEqual({ numAffectedRows: 1n, insertId: 1n, rows: [] });
    expect(direct).toEqual({ numAffectedRows: 1n, insertId: 2n, rows: [] });
    const rows = [
      { id: 1, text: "first" },
      { id: 2, text: "second" },
    ];
    expect((await db.executeQuery(select)).rows).toEqual(rows);
    expect(store.runUnlessInTransaction(select)?.rows).toEqual(rows);
  });

  it("decline while a transaction holds the connection, and answer again once it has ended", async () => {
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(insert("inside"));
      expect(store.runUnlessInTransaction(select)).toBeUndefined();
    });
    expect(store.runUnlessInTransaction(select)?.rows.at(-1)).toEqual({ id: 3, text: "inside" });
  });
});
