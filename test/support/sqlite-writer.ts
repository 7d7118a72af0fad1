import { once } from "node:events";
import { parentPort, workerData } from "node:worker_threads";
import { setImmediate as yieldTurn } from "node:timers/promises";
import { sql } from "kysely";
import { inTransaction, openDatabase } from "../../src/server/store/database.ts";

// A second process's writer, run in a worker thread with a connection of its own to the store's file:
// each of its transactions reads the highest number written so far and writes the next one. It says
// "ready" once its store is open and starts on "go", so that two of them write at the same time.

const { file, transactions } = workerData as { file: string; transactions: number };
const db = await openDatabase({ database: { kind: "sqlite", file } });
if (!parentPort) throw new Error("a worker thread's script");
parentPort.postMessage("ready");
await once(parentPort, "message");
let outcome = "done";
try {
  for (let done = 0; done < transactions; done++) {
    await inTransaction(db, async (trx) => {
      const { rows } = await sql<{ last: number | null }>`select max(n) as last from counter`.execute(trx);
      // Another writer may act between the read and the write.
      await yieldTurn();
      await sql`insert into counter (n) values (${(rows[0]?.last ?? 0) + 1})`.execute(trx);
    });
  }
} catch (error) {
  outcome = error instanceof Error ? error.message : String(error);
} finally {
  await db.destroy();
}
parentPort.postMessage(outcome);
