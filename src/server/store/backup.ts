import fs from "node:fs";
import path from "node:path";
import { backup, DatabaseSync } from "node:sqlite";

/**
 * Copies the SQLite store to `destination` with SQLite's online backup, page by page: the copy is
 * consistent even while a running Vrata writes, and it is readable by its owner only. An existing
 * file is never overwritten; the copy appears at its name complete or not at all.
 */
export async function backUpSqlite(source: string, destination: string): Promise<number> {
  if (!fs.existsSync(source)) throw new Error(`there is no store at ${source} (check --data)`);
  if (fs.existsSync(destination)) throw new Error(`${destination} exists already; choose a new file`);
  const draft = path.join(path.dirname(destination), `.${path.basename(destination)}.${process.pid}.partial`);
  const database = new DatabaseSync(source);
  try {
    fs.closeSync(fs.openSync(draft, "wx", 0o600));
    const pages = await backup(database, draft);
    fs.linkSync(draft, destination);
    return pages;
  } finally {
    database.close();
    fs.rmSync(draft, { force: true });
  }
}
