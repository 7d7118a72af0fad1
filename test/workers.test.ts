import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { routes } from "../src/common/routes.ts";
import { openDatabase, type Database } from "../src/server/store/database.ts";
import { migrate } from "../src/server/store/migrate.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { vrataCommand } from "./support/command.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { signInToApp } from "./support/organization-admin.ts";
import { createPostgresSchema, storeEngines } from "./support/postgres.ts";
import { freePort } from "./support/ports.ts";
import { trustCa } from "./support/server.ts";
import { RunningCommand } from "./support/running-command.ts";

// `vrata --workers 2`, run as an operator runs it: a primary process and two workers sharing one port.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The processes a process has started (Linux). */
const childrenOf = (pid: number) =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .split(" ")
    .filter((field) => field !== "")
    .map(Number);

/** The environment a process started with (Linux). */
const environmentOf = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");

/** Whether something accepts connections on the port. */
const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "localhost");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/**
 * Keeps the store from being prepared until `release` is called: the SQLite file's write lock (a
 * fresh store must be written to), or PostgreSQL's table of migrations (read under the migrator's lock).
 */
async function holdStore(db: Database, sqliteFile: string | undefined): Promise<() => Promise<void>> {
  if (sqliteFile) {
    const lock = new DatabaseSync(sqliteFile);
    lock.exec("BEGIN IMMEDIATE");
    return () => {
      lock.exec("COMMIT");
      lock.close();
      return Promise.resolve();
    };
  }
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked = () => {};
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`lock table kysely_migration in access exclusive mode`.execute(trx);
    locked();
    await released;
  });
  await holding;
  return () => (release(), transaction);
}

// Each request on a connection of its own, as from many browsers: the cluster hands each new connection
// to the next worker, so consecutive requests of one flow reach different workers.
const connectionPerRequest =
  (send: typeof fetch): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("connection", "close");
    return send(input, { ...init, headers });
  };

const metricsToken = "a metrics token of at least thirty-two characters";

/** The count of one series of the request histogram in a Prometheus text answer. */
function requestCount(metrics: string, route: string): number {
  const series = `vrata_http_request_duration_seconds_count{route="${route}",method="GET",status="2xx"}`;
  const line = metrics.split("\n").find((candidate) => candidate.startsWith(series));
  return Number(line?.slice(series.length).trim() ?? 0);
}

describe.each(storeEngines)("vrata --workers 2 on $name", ({ url }) => {
  let dataDir: string;
  let origin: string;
  let command: RunningCommand;
  let db: Database;
  let app: TestApp;
  let dropSchema = () => Promise.resolve();
  let whileUnprepared: { workers: number; ready: number; accepting: boolean } | undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-workers-"));
    const port = await freePort();
    origin = `https://localhost:${port}`;
    const metricsTokenFile = path.join(dataDir, "metrics-token");
    fs.writeFileSync(metricsTokenFile, metricsToken, { mode: 0o600 });
    let database: string[] = [];
    let postgresSchema: string | undefined;
    if (url) {
      const schema = await createPostgresSchema(url);
      postgresSchema = schema.schema;
      dropSchema = schema.drop;
      const inSchema = new URL(url);
      inSchema.searchParams.set("options", `-c search_path=${schema.schema}`);
      database = ["--database", inSchema.href];
    }
    db = await openDatabase({
      database: url
        ? { kind: "postgres", url }
        : { kind: "sqlite", file: path.join(dataDir, "vrata.sqlite") },
      postgresSchema,
    });
    // A schema chosen by the URL alone is one the migrator takes for another's when it is empty: the
    // test makes its tables first, as an earlier version of Vrata would have.
    if (url) await migrate(db, postgresSchema);
    const release = await holdStore(db, url ? undefined : path.join(dataDir, "vrata.sqlite"));
    // The operator's environment, without a choice of malloc arenas the workers would keep.
    const { MALLOC_ARENA_MAX: _chosen, ...env } = process.env;
    const child = spawn(
      process.execPath,
      [
        ...vrataCommand,
        ...["--workers", "2", "--port", String(port), "--data", dataDir, ...database],
        ...["--metrics-token-file", metricsTokenFile],
      ],
      { stdio: ["ignore", "pipe", "inherit"], env },
    );
    command = new RunningCommand(child);
    // The workers start while the store cannot be prepared, and are given time to load. SQLite's lock
    // outlasts the wait of a write for another (busy_timeout): the start tries again until it is free.
    await vi.waitFor(() => expect(childrenOf(child.pid ?? 0)).toHaveLength(2), { timeout: 30_000 });
    if (url) await sleep(1000);
    else await command.next((line) => /does not answer \(database is locked\); trying again/.test(line.msg));
    whileUnprepared = {
      workers: childrenOf(child.pid ?? 0).length,
      ready: command.workers.length,
      accepting: await accepting(port),
    };
    await release();
    await command.next((line) => line.msg.startsWith("Vrata is serving"));
    await command.workersReady(2);
    trustCa(path.join(dataDir, "tls", "ca.pem"));
    app = await registerTestApp(db, "Served by two");
    vi.stubGlobal("fetch", connectionPerRequest(fetch));
  });

  afterAll(async () => {
    vi.unstubAllGlobals();
    if (command.child.exitCode === null) command.child.kill("SIGKILL");
    await db.destroy();
    await dropSchema();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts two workers that each serve, and a flow started on one continues on the other", async () => {
    expect(command.workers).toHaveLength(2);
    expect(command.workers).not.toContain(command.child.pid);

    const { driver, tokens } = await signInToApp(origin, app, "everywhere");

    expect(tokens.id_token).toBeTruthy();
    const servedTheFlow = new Set(
      command.lines.filter((line) => line.req?.path.includes(driver.flowId)).map((line) => line.pid),
    );
    expect([...servedTheFlow].sort()).toEqual([...command.workers].sort());
  });

  it("starts its workers before the store is prepared, and they serve only once it is", () => {
    expect(whileUnprepared).toEqual({ workers: 2, ready: 0, accepting: false });
  });

  it("starts its workers with glibc's malloc held to two arenas", () => {
    for (const worker of command.workers) expect(environmentOf(worker)).toContain("MALLOC_ARENA_MAX=2");
    expect(environmentOf(command.child.pid ?? 0)).not.toContain("MALLOC_ARENA_MAX=2");
  });

  it("replaces a worker that dies, and the new one serves", async () => {
    const [victim, survivor] = command.workers;
    const from = command.lines.length;
    process.kill(victim ?? 0, "SIGKILL");

    const replaced = await command.next(
      (line) => line.msg.startsWith(`worker ${victim} ended on SIGKILL`),
      from,
    );
    expect(replaced.pid).toBe(command.child.pid);
    const replacement = Number(/worker (\d+) replaces it/.exec(replaced.msg)?.[1]);
    await command.workersReady(2);
    expect(command.workers.sort()).toEqual([replacement, survivor].sort());
    expect(environmentOf(replacement)).toContain("MALLOC_ARENA_MAX=2");

    const { driver } = await signInToApp(origin, app, "after-a-crash");
    const servedTheFlow = new Set(
      command.lines.filter((line) => line.req?.path.includes(driver.flowId)).map((line) => line.pid),
    );
    expect([...servedTheFlow].sort()).toEqual([replacement, survivor].sort());
  });

  it("reports the metrics of both workers together, whichever worker is scraped", async () => {
    const from = command.lines.length;
    // A document's route: health checks are logged at debug only, and this log is at info.
    const context = routes.Context.path;
    for (let request = 0; request < 6; request++) expect((await fetch(origin + context)).status).toBe(200);
    const served = new Set(
      command.lines
        .slice(from)
        .filter((line) => line.req?.path === context)
        .map((line) => line.pid),
    );
    expect(served.size).toBe(2);

    const metrics = async () => {
      const response = await fetch(origin + routes.Metrics.path, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    // Each scrape may reach either worker; every one counts the six requests of both.
    for (let scraped = 0; scraped < 4; scraped++)
      await expect.poll(async () => requestCount(await metrics(), context)).toBe(6);
    // Which version runs is said once, not once per worker; the processes' memory is their sum.
    const text = await metrics();
    expect(text).toMatch(/^vrata_build_info\{version="[^"]+",node="v\d+\.\d+\.\d+"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it("answers two accepts of one invitation at once with one acceptance and one refusal, never a 5xx", async () => {
    const admin = await consoleSignUp(origin, "inviting");
    const invited = await consoleSignUp(origin, "invited");
    // The refusals of all rounds are compared at the end, so that a failure shows every round's.
    const answers: string[][] = [];
    for (let round = 0; round < 20; round++) {
      const created = await postJson(admin.api, "/api/o/create", { name: `Raced ${round}` });
      const { id } = (await created.json()) as { id: string };
      const invitation = await postJson(admin.api, `/api/o/invite/${id}`, {
        identityId: invited.identityId,
        role: "member",
      });
      const { id: invitationId } = (await invitation.json()) as { id: string };
      const accept = () => postJson(invited.api, `/api/i/accept/${invited.identityId}/${invitationId}`, {});
      const both = await Promise.all([accept(), accept()]);
      const outcome = async (answer: Response) =>
        answer.ok ? "200" : `${answer.status} ${((await answer.json()) as { error: string }).error}`;
      answers.push((await Promise.all(both.map(outcome))).sort());
    }
    expect(answers).toEqual(answers.map(() => ["200", "404 notFound"]));
  });

  it("stops the primary and every worker on SIGTERM, exiting with 0", async () => {
    const workers = command.workers.filter(alive);
    expect(workers).toHaveLength(2);

    command.child.kill("SIGTERM");

    expect(await command.exited).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
    expect(command.lines.map((line) => line.msg)).toContain("SIGTERM received, stopping 2 workers in 5 s");
  });
});

/** Runs `test` with a data folder of its own, removed after. */
async function withDataFolder(test: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-workers-"));
  try {
    await test(dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `vrata --workers N` on SQLite in `dataDir`, on a free port. */
async function startVrata(workers: number, dataDir: string) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...vrataCommand, "--workers", String(workers), "--port", String(port), "--data", dataDir],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return { child, command: new RunningCommand(child) };
}

describe("vrata on SIGHUP", () => {
  it("stops at once, saying so, as when the terminal it runs in closes", async () => {
    await withDataFolder(async (dataDir) => {
      const { child, command } = await startVrata(1, dataDir);
      await command.next((line) => line.msg.startsWith("Vrata is serving"));

      child.kill("SIGHUP");

      expect(await command.exited).toBe(0);
      expect(command.lines.map((line) => line.msg)).toContain("SIGHUP received, stopping");
    });
  });
});

describe("vrata --workers 2 stopped while its workers start", () => {
  it("ends every worker before it serves, exiting with 0", async () => {
    await withDataFolder(async (dataDir) => {
      const { child, command } = await startVrata(2, dataDir);
      await vi.waitFor(() => expect(childrenOf(child.pid ?? 0)).toHaveLength(2), {
        timeout: 30_000,
        interval: 5,
      });
      // The workers are still loading their modules: the request to stop comes before they listen for it.
      child.kill("SIGTERM");

      expect(await command.exited).toBe(0);
      expect(command.lines.filter((line) => line.msg.startsWith("worker ready"))).toEqual([]);
    });
  });
});
