import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runSql } from "./postgres.ts";

// Vitest's global set-up: the PostgreSQL schemas test files make are dropped once every file has
// run, not while others run. A schema dropped meanwhile fails another file's migration: the migrator
// asks PostgreSQL about every schema of the database, and one that disappears during that question
// is an error ("schema … does not exist").

/** The file test files list their schemas in, one line each: `<server URL> <schema>`. */
export const schemasFileVariable = "VRATA_TEST_SCHEMAS_FILE";

export default function setup(): () => Promise<void> {
  const file = path.join(os.tmpdir(), `vrata-test-schemas-${process.pid}`);
  fs.writeFileSync(file, "");
  process.env[schemasFileVariable] = file;
  return async () => {
    const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    for (const line of lines) {
      const [url = "", schema = ""] = line.split(" ");
      await runSql(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
    fs.rmSync(file, { force: true });
  };
}
