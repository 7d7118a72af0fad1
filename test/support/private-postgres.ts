import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./ports.ts";

// A PostgreSQL server of a test's own, from the machine's PostgreSQL installation: a test may stop,
// restart and cut it off without disturbing the tests that share the suite's server.

/** The folder of PostgreSQL's server programs (initdb, pg_ctl): Debian keeps one per version. */
function serverPrograms(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions
    .map((version) => path.join(root, version, "bin"))
    .find((bin) => fs.existsSync(path.join(bin, "initdb")));
}

/** Whether this machine can run a private PostgreSQL server (it has PostgreSQL's server programs). */
export const canRunPrivatePostgres = serverPrograms() !== undefined;

export class PrivatePostgres {
  readonly port: number;
  readonly url: string;
  readonly #bin: string;
  readonly #dir: string;

  private constructor(bin: string, dir: string, port: number) {
    this.#bin = bin;
    this.#dir = dir;
    this.port = port;
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  /** A new server's files, made but not started. */
  static async create(): Promise<PrivatePostgres> {
    const bin = serverPrograms();
    if (!bin) throw new Error("PostgreSQL's server programs are not installed");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-postgres-"));
    const server = new PrivatePostgres(bin, dir, await freePort());
    // PostgreSQL refuses to run as root: a root test runs it as the postgres user.
    if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", dir]);
    server.#run("initdb", ["-D", server.#data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
    return server;
  }

  get #data() {
    return path.join(this.#dir, "data");
  }

  #run(program: string, args: string[]): void {
    const command = path.join(this.#bin, program);
    const asServerUser = process.getuid?.() === 0;
    execFileSync(
      asServerUser ? "runuser" : command,
      asServerUser ? ["-u", "postgres", "--", command, ...args] : args,
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
  }

  /** Starts the server and waits until it accepts connections. */
  start(): void {
    const options = `-p ${this.port} -k ${this.#dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.#run("pg_ctl", ["-D", this.#data, "-o", options, "-l", path.join(this.#dir, "log"), "-w", "start"]);
  }

  /** Stops the server as an administrator would for a restart: open connections are ended. */
  stop(): void {
    this.#run("pg_ctl", ["-D", this.#data, "-m", "fast", "-w", "stop"]);
  }

  /** Ends every client's connection to the server, as `pg_terminate_backend` does; returns how many. */
  async terminateConnections(): Promise<number> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      return rows.filter((row) => row.ended).length;
    } finally {
      await client.end();
    }
  }

  /** Stops the server if it runs and removes its files. */
  remove(): void {
    try {
      this.stop();
    } catch {
      // It was not running.
    }
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }
}
