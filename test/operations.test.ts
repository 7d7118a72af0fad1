import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { signInToApp } from "./support/organization-admin.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Health checks and Prometheus metrics (README "Operations").

const token = "metrics-token-0123456789abcdef0123456789";
let folder: string;
let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-metrics-"));
  fs.writeFileSync(path.join(folder, "token"), `${token}\n`, { mode: 0o600 });
  server = await startTestServer({ args: ["--metrics-token-file", path.join(folder, "token")] });
  app = await registerTestApp(server.db, "Metered");
});
afterAll(async () => {
  await server.dispose();
  fs.rmSync(folder, { recursive: true, force: true });
});

const metrics = (authorization?: string) =>
  fetch(`${server.issuer}/metrics`, authorization ? { headers: { authorization } } : {});

/** The value of one series of the metrics text, or undefined when it is not there. */
function series(text: string, line: string): number | undefined {
  const found = text.split("\n").find((candidate) => candidate.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe("health", () => {
  it("answers live and ready, at both paths, without caching", async () => {
    for (const url of ["/health/live", "/api/health/live"]) {
      const live = await fetch(server.issuer + url);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: "ok" });
    }
    const ready = await fetch(`${server.issuer}/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ok", database: "reachable" });
  });

  it("is not ready when the store does not answer, and says so", async () => {
    const other = await startTestServer();
    try {
      await other.db.destroy();
      const ready = await fetch(`${other.issuer}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "unavailable", database: "unreachable" });
      expect((await fetch(`${other.issuer}/health/live`)).status).toBe(200);
    } finally {
      await other.dispose().catch(() => undefined);
    }
  });
});

describe("metrics", () => {
  it("are only for whoever presents the token", async () => {
    expect((await metrics()).status).toBe(401);
    expect((await metrics(`Bearer ${token.slice(0, -1)}x`)).status).toBe(401);
    expect((await metrics(token)).status).toBe(401);
    const answer = await metrics(`Bearer ${token}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("count requests by route, sign-ins by method and tokens by grant", async () => {
    const before = await (await metrics(`Bearer ${token}`)).text();
    const signUps = 'vrata_auth_steps_total{method="password",outcome="signup"}';
    const codeGrants = 'vrata_tokens_issued_total{grant="authorization_code"}';

    const { driver } = await signInToApp(server.issuer, app, "metered");

    const after = await (await metrics(`Bearer ${token}`)).text();
    expect(series(after, signUps)).toBe((series(before, signUps) ?? 0) + 1);
    expect(series(after, codeGrants)).toBe((series(before, codeGrants) ?? 0) + 1);
    expect(
      series(
        after,
        'vrata_http_request_duration_seconds_count{route="/api/auth/passwordComplete/:id",method="POST",status="2xx"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^vrata_store_query_duration_seconds_count\{statement="select"\} \d+/m);
    expect(after).toMatch(/^vrata_password_hashes\{state="running"\} 0$/m);
    // The process and Node.js's runtime, and which version of each runs.
    expect(after).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(after).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
    expect(series(after, `vrata_build_info{version="${version}",node="${process.version}"}`)).toBe(1);
    // Nothing about a person or a request is a label.
    expect(after).not.toContain("metered");
    expect(after).not.toContain(driver.flowId);
  });

  it("are off without a token file", async () => {
    const other = await startTestServer();
    try {
      const answer = await fetch(`${other.issuer}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(404);
    } finally {
      await other.dispose();
    }
  });
});
