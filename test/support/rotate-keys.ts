import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { vrataCommand } from "./command.ts";
import type { TestServer } from "./server.ts";

const run = promisify(execFile);

/** The test server's PostgreSQL schema, chosen as any PostgreSQL client can: by the URL's options. */
function urlOfSchema(postgresUrl: string, server: TestServer): string {
  const url = new URL(postgresUrl);
  url.searchParams.set("options", `-c search_path=${server.postgresSchema ?? ""}`);
  return url.href;
}

/** `vrata keys rotate` on the server's store, run as an operator runs it. */
export function rotateCommand(server: TestServer, postgresUrl: string | undefined, ...options: string[]) {
  const database = postgresUrl === undefined ? [] : ["--database", urlOfSchema(postgresUrl, server)];
  return run(process.execPath, [
    ...vrataCommand,
    "keys",
    "rotate",
    "--data",
    server.dataDir,
    ...database,
    ...options,
  ]);
}
