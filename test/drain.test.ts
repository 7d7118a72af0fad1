import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../src/common/routes.ts";
import { vrataCommand } from "./support/command.ts";
import { consoleAuthorizeUrl, startLoad } from "./support/load.ts";
import { postgresUrl, runSql } from "./support/postgres.ts";
import { freePort } from "./support/ports.ts";
import { RunningCommand } from "./support/running-command.ts";

// Two instances of Vrata on one PostgreSQL behind HAProxy, as the README deploys them, one of them
// stopped with SIGTERM while people keep signing in: readiness turns the proxy away from it, the
// requests it has started finish, and nobody is answered with an error.

const haproxyInstalled = spawnSync("haproxy", ["-v"]).status === 0;

/** HAProxy in front of the instances, checking each one's readiness twice a second. */
function haproxyConfig(port: number, instances: number[]): string {
  return [
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    // A check answered late on a busy machine is not a failed one.
    "  timeout check 5s",
    "  retries 3",
    "  option redispatch",
    "frontend vrata",
    `  bind 127.0.0.1:${port}`,
    "  option forwardfor",
    "  http-request set-header X-Forwarded-Proto https",
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /health/ready",
    "  http-check expect status 200",
    "  default-server inter 500ms fall 2 rise 1",
    ...instances.map((instancePort, index) => `  server vrata${index} 127.0.0.1:${instancePort} check`),
    "",
  ].join("\n");
}

describe.runIf(postgresUrl && haproxyInstalled)("SIGTERM of one of two instances behind a proxy", () => {
  const database = `vrata_drain_${randomBytes(6).toString("hex")}`;
  const serverUrl = new URL(postgresUrl ?? "postgres://localhost");
  const databaseUrl = Object.assign(new URL(serverUrl.href), { pathname: `/${database}` }).href;
  let dir: string;
  let proxy: ChildProcess;
  let origin: string;
  const instances: { command: RunningCommand; port: number }[] = [];

  beforeAll(async () => {
    await runSql(serverUrl.href, `CREATE DATABASE ${database}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-drain-"));
    const secretKeyFile = path.join(dir, "secret.key");
    fs.writeFileSync(secretKeyFile, randomBytes(32).toString("base64"), { mode: 0o600 });
    const proxyPort = await freePort();
    origin = `http://localhost:${proxyPort}`;
    // One after the other: the first migrates the new database.
    for (const name of ["first", "second"]) {
      const port = await freePort();
      const dataDir = path.join(dir, name);
      const child = spawn(
        process.execPath,
        [
          ...vrataCommand,
          ...["--workers", "1", "--port", String(port), "--data", dataDir, "--database", databaseUrl],
          ...["--behind-proxy", "--issuer", "https://id.example.test", "--secret-key-file", secretKeyFile],
          // Longer than the default, so that a slow machine still sees the drain before the exit.
          ...["--drain-delay", "10"],
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      const command = new RunningCommand(child);
      await command.next((line) => line.msg.startsWith("Vrata is serving"));
      instances.push({ command, port });
    }
    const configFile = path.join(dir, "haproxy.cfg");
    fs.writeFileSync(
      configFile,
      haproxyConfig(
        proxyPort,
        instances.map(({ port }) => port),
      ),
    );
    proxy = spawn("haproxy", ["-db", "-f", configFile], { stdio: ["ignore", "inherit", "inherit"] });
  });

  afterAll(async () => {
    proxy.kill("SIGKILL");
    for (const { command } of instances) {
      if (command.child.exitCode === null) command.child.kill("SIGKILL");
      await command.exited;
    }
    await runSql(serverUrl.href, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers every request while the stopped instance drains, and the instance exits with 0", async () => {
    const [stopped, staying] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const servedBy = ({ command }: (typeof instances)[0], from = 0) =>
      command.lines.slice(from).filter((line) => line.req?.path === routes.OIDCAuthorize.path).length;
    const throughProxy = () =>
      fetch(origin + routes.HealthReady.path).then(
        (response) => response.status,
        () => 0,
      );
    await expect.poll(throughProxy, { timeout: 30_000 }).toBe(200);
    const authorizeUrl = await consoleAuthorizeUrl(origin);
    const load = startLoad(authorizeUrl, 8);
    // Both instances take part before the signal.
    await expect
      .poll(() => Math.min(servedBy(stopped), servedBy(staying)), { timeout: 60_000 })
      .toBeGreaterThan(20);
    await load.succeeding(40);

    const signalled = stopped.command.lines.length;
    const before = load.tally.total;
    stopped.command.child.kill("SIGTERM");
    // Readiness turns at once, while the instance still answers everything else.
    const direct = (route: "HealthReady" | "HealthLive") =>
      fetch(`http://localhost:${stopped.port}${routes[route].path}`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as unknown,
      }));
    await expect.poll(() => direct("HealthReady")).toEqual({ status: 503, body: { status: "stopping" } });
    expect(await direct("HealthLive")).toEqual({ status: 200, body: { status: "ok" } });

    expect(await stopped.command.exited).toBe(0);
    // The other instance goes on serving alone (a streak of successes may be long done already: the
    // staying instance's own log says when it has served more).
    const afterExit = servedBy(staying);
    await expect.poll(() => servedBy(staying), { timeout: 60_000 }).toBeGreaterThan(afterExit + 100);
    await load.stop();

    console.log(
      `SIGTERM behind a proxy: ${load.tally.toString()}; ${load.tally.total - before} after the signal, ` +
        `${servedBy(stopped, signalled)} of them by the stopped instance while it drained`,
    );
    expect(load.tally.noAnswer).toBe(0);
    expect([...load.tally.statuses.keys()]).toEqual([303]);
    expect(stopped.command.lines.slice(signalled).map((line) => line.msg)).toContain(
      "SIGTERM received: readiness answers 503, stopping in 10 s",
    );
  }, 300_000);
});
