import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPrefix, routes } from "../src/common/routes.ts";
import { vrataCommand } from "./support/command.ts";
import { postgresUrl } from "./support/postgres.ts";
import { freePort } from "./support/ports.ts";
import { canRunPrivatePostgres, PrivatePostgres } from "./support/private-postgres.ts";
import { consoleAuthorizeUrl, startLoad } from "./support/load.ts";
import { RunningCommand } from "./support/running-command.ts";
import { trustCa } from "./support/server.ts";

// Vrata on a PostgreSQL of the test's own that is restarted, stopped and cut off while requests keep
// coming: no process exits, a request that meets the outage gets a 503, and once the database
// answers again every request succeeds, without anybody restarting Vrata.

async function readiness(origin: string): Promise<number> {
  const response = await fetch(origin + routes.HealthReady.path);
  await response.arrayBuffer();
  return response.status;
}

describe.runIf(postgresUrl && canRunPrivatePostgres)("Vrata through database faults", () => {
  let postgres: PrivatePostgres;
  let dataDir: string;
  let origin: string;
  let command: RunningCommand;
  let authorizeUrl: string;

  beforeAll(async () => {
    postgres = await PrivatePostgres.create();
    postgres.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-faults-"));
    const port = await freePort();
    origin = `https://localhost:${port}`;
    // A replacement worker that finds the database away gives up after a second, so the primary's
    // later tries show within the test.
    const args = ["--workers", "2", "--port", String(port), "--data", dataDir];
    const child = spawn(
      process.execPath,
      [...vrataCommand, ...args, "--database", postgres.url, "--database-wait", "1"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    command = new RunningCommand(child);
    await command.next((line) => line.msg.startsWith("Vrata is serving"));
    trustCa(path.join(dataDir, "tls", "ca.pem"));
    authorizeUrl = await consoleAuthorizeUrl(origin);
  });

  afterAll(async () => {
    command.child.kill("SIGTERM");
    await command.exited;
    postgres.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const processesEnded = () => command.lines.filter((line) => / ended /.test(line.msg));

  it("answers every request when PostgreSQL ends the connections of its workers under load", async () => {
    const load = startLoad(authorizeUrl, 8);
    await load.succeeding(40);
    const ended = await postgres.terminateConnections();
    const before = load.tally.total;
    await load.succeeding(100);
    await load.stop();

    console.log(`pg_terminate_backend of ${ended} connections: ${load.tally.toString()}`);
    expect(ended).toBeGreaterThan(0);
    expect(load.tally.total).toBeGreaterThan(before);
    expect(load.tally.unexpected).toEqual([]);
    expect(load.tally.noAnswer).toBe(0);
    expect(processesEnded()).toEqual([]);
    expect(await readiness(origin)).toBe(200);
  });

  it("answers 503 while PostgreSQL restarts and succeeds again by itself once it is back", async () => {
    const load = startLoad(authorizeUrl, 8);
    await load.succeeding(40);
    postgres.stop();
    const servedBefore = load.tally.count(303);
    await expect.poll(() => readiness(origin), { timeout: 20_000 }).toBe(503);
    await expect.poll(() => load.tally.count(503), { timeout: 20_000 }).toBeGreaterThan(0);
    // Each kind of client is told in its own terms to come back soon.
    const outage = await Promise.all([
      fetch(origin + routes.OIDCToken.path, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "123456789ABCDEFGHJKLMN",
          client_secret: "x",
        }),
      }),
      fetch(authorizeUrl, { redirect: "manual", headers: { accept: "text/html" } }),
      fetch(origin + apiPrefix + routes.IdentityList.path, {
        headers: { authorization: "Bearer some-token" },
      }),
    ]);
    const [engineJson, enginePage, api] = await Promise.all(outage.map((response) => response.text()));
    expect(outage.map((response) => [response.status, response.headers.get("retry-after")])).toEqual([
      [503, "5"],
      [503, "5"],
      [503, "5"],
    ]);
    expect(JSON.parse(engineJson ?? "")).toMatchObject({ error: "temporarily_unavailable" });
    expect(enginePage).toContain('"error":"storeUnavailable"');
    expect(JSON.parse(api ?? "")).toMatchObject({ error: "storeUnavailable" });
    postgres.start();
    await expect.poll(() => readiness(origin), { timeout: 30_000 }).toBe(200);
    await load.succeeding(100);
    await load.stop();

    console.log(`PostgreSQL restart: ${load.tally.toString()}`);
    expect(load.tally.count(303)).toBeGreaterThan(servedBefore);
    expect(load.tally.unexpected).toEqual([]);
    expect(load.tally.noAnswer).toBe(0);
    expect(processesEnded()).toEqual([]);
  }, 300_000);

  it("replaces a worker that ends while the database is away, trying again until it is back", async () => {
    await command.workersReady(2);
    const [lost, survivor] = command.workers;
    postgres.stop();
    const from = command.lines.length;
    process.kill(lost ?? 0, "SIGKILL");
    // The replacements cannot open the store: each ends, and the next comes later.
    const failedStart = (line: { msg: string }) => line.msg.includes("before it could serve");
    await command.next(failedStart, from);
    const secondFailure = command.lines.findIndex((line, index) => index >= from && failedStart(line));
    await command.next(failedStart, secondFailure + 1);
    expect(command.child.exitCode).toBeNull();

    postgres.start();
    await command.workersReady(2);
    expect(command.workers).toContain(survivor);
    const load = startLoad(authorizeUrl, 4);
    await load.succeeding(40);
    await load.stop();
    expect(load.tally.unexpected).toEqual([]);
    expect(command.child.exitCode).toBeNull();
    const replacements = command.lines
      .slice(from)
      .filter((line) => / ended /.test(line.msg))
      .map((line) => line.msg);
    console.log(`worker replaced while the database was away:\n${replacements.join("\n")}`);
    // Later and later: the second failed start waits longer than the first.
    expect(replacements.slice(0, 3)).toEqual([
      expect.stringMatching(/ended on SIGKILL; worker \d+ replaces it$/),
      expect.stringMatching(/before it could serve; a replacement starts in 1 s$/),
      expect.stringMatching(/before it could serve; a replacement starts in 2 s$/),
    ]);
  }, 300_000);
});

describe.runIf(postgresUrl && canRunPrivatePostgres)("a start while the database does not answer", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-faults-"));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const start = async (database: string, wait: string) => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [...vrataCommand, "--workers", "1", "--port", String(port), "--data", dataDir, "--database", database],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, VRATA_DATABASE_WAIT: wait } },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    return { command: new RunningCommand(child), stderr: () => stderr };
  };

  it("waits for a PostgreSQL that is still starting, saying so, and serves once it answers", async () => {
    const postgres = await PrivatePostgres.create();
    try {
      const { command, stderr } = await start(postgres.url, "60");
      const waiting = await command.next((line) => line.msg.includes("does not answer"));
      expect(waiting.msg).toContain(`127.0.0.1:${postgres.port}`);
      expect(waiting.msg).toContain("ECONNREFUSED");
      postgres.start();
      const serving = await command.next((line) => line.msg.startsWith("Vrata is serving"));
      // A single process too outlives its connections being ended, and serves on new ones.
      const origin = /listening at (\S+)\)/.exec(serving.msg)?.[1] ?? "";
      trustCa(path.join(dataDir, "tls", "ca.pem"));
      expect(await readiness(origin)).toBe(200);
      expect(await postgres.terminateConnections()).toBeGreaterThan(0);
      await expect.poll(() => readiness(origin), { timeout: 20_000 }).toBe(200);
      expect(command.child.exitCode).toBeNull();
      expect(stderr()).toBe("");
      command.child.kill("SIGTERM");
      await command.exited;
    } finally {
      postgres.remove();
    }
  });

  it("gives up after --database-wait on a host that accepts connections but never answers, naming it and why", async () => {
    // A server that takes connections and says nothing, as a database host behind a dead proxy does.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const { command, stderr } = await start(
        `postgres://vrata:secret-password@127.0.0.1:${port}/vrata`,
        "1",
      );
      expect(await command.exited).toBe(2);
      const lines = stderr().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^vrata: --database: the database at 127\\.0\\.0\\.1:${port} did not answer within 1 s: it accepted a connection but did not answer within 5 s$`,
        ),
      );
      expect(stderr()).not.toContain("secret-password");
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
