import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { CompiledQuery, Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";
import { openSqlite, WritingTransactionsDialect, type SqliteStore } from "./sqlite.ts";

describe("SQLite store", () => {
  let dir: string;
  let store: SqliteStore;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-sqlite-"));
    store = openSqlite(path.join(dir, "direct.sqlite"));
    db = new Kysely({ dialect: new WritingTransactionsDialect(store.database) });
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

describe("SQLite transactions of two processes writing at once", () => {
  it("both complete, each after the other's writes, never failing as locked", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-sqlite-"));
    try {
      const file = path.join(dir, "writers.sqlite");
      const setup = await openDatabase({ database: { kind: "sqlite", file } });
      await sql`create table counter (n integer primary key)`.execute(setup);
      const transactions = 200;
      const writers = [1, 2].map(
        () =>
          new Worker(new URL("../../../test/support/sqlite-writer.ts", import.meta.url), {
            workerData: { file, transactions },
          }),
      );
      await Promise.all(writers.map((writer) => once(writer, "message")));
      const outcomes = writers.map((writer) =>
        once(writer, "message").then(([outcome]) => outcome as unknown),
      );
      for (const writer of writers) writer.postMessage("go");
      expect(await Promise.all(outcomes)).toEqual(["done", "done"]);
      // No transaction wrote from a stale read: the numbers run from 1 without a gap.
      const { rows } = await sql<{ n: number }>`select n from counter order by n`.execute(setup);
      expect(rows.map(({ n }) => n)).toEqual(Array.from({ length: 2 * transactions }, (_, i) => i + 1));
      await setup.destroy();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
