import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { signInToApp } from "./support/organization-admin.ts";
import { postgresUrl } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// `vrata backup` copies the SQLite store while Vrata serves; putting the copy back restores what was.

const run = promisify(execFile);
let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  server = await startTestServer();
  app = await registerTestApp(server.db, "Backed up");
});
afterAll(() => server.dispose());

/** Signs a new person up to the app; returns its tokens and the client configuration they came with. */
async function signUp(on: { server: TestServer; app: TestApp }, username: string) {
  const { driver, tokens } = await signInToApp(on.server.issuer, on.app, username);
  return { tokens, config: driver.config };
}

it("is consistent while serving, and a restored store serves the tokens it held", async () => {
  const before = await signUp({ server, app }, "before-backup");
  const copy = path.join(server.dataDir, "..", `${path.basename(server.dataDir)}-backup.sqlite`);
  const backup = run(process.execPath, ["bin/vrata.js", "backup", copy, "--data", server.dataDir]);
  // People keep signing in while the copy is taken.
  await Promise.all([backup, signUp({ server, app }, "during-backup")]);
  expect((await backup).stdout).toMatch(/^vrata: backed up .* \(\d+ pages\)\. Keep the instance key/);
  expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
  const again = run(process.execPath, ["bin/vrata.js", "backup", copy, "--data", server.dataDir]);
  await expect(again).rejects.toMatchObject({ stderr: expect.stringMatching(/exists already/) as unknown });

  // After the backup the refresh token is revoked; the restored store knows it from before.
  const refresh = before.tokens.refresh_token ?? "";
  await client.tokenRevocation(before.config, refresh);
  await expect(client.refreshTokenGrant(before.config, refresh)).rejects.toThrow();

  const store = path.join(server.dataDir, "vrata.sqlite");
  // The store is put back while no Vrata runs on it.
  server = await server.restart(() => {
    for (const file of [store, `${store}-wal`, `${store}-shm`]) fs.rmSync(file, { force: true });
    fs.copyFileSync(copy, store);
    fs.rmSync(copy);
  });
  const refreshed = await client.refreshTokenGrant(before.config, refresh);
  expect(refreshed.claims()?.sub).toBe(before.tokens.claims()?.sub);
});

it("of a PostgreSQL store points to pg_dump", async () => {
  const answer = run(process.execPath, [
    "bin/vrata.js",
    "backup",
    path.join(server.dataDir, "never.sqlite"),
    "--database",
    "postgres://vrata@127.0.0.1:1/vrata",
  ]);
  await expect(answer).rejects.toMatchObject({ stderr: expect.stringMatching(/pg_dump/) as unknown });
});

describe.runIf(postgresUrl)("on PostgreSQL", () => {
  it("pg_dump while serving and pg_restore bring back the tokens the store held", async () => {
    const url = postgresUrl ?? "";
    let store = await startTestServer({ postgresUrl: url });
    try {
      const target = { server: store, app: await registerTestApp(store.db, "Backed up on PostgreSQL") };
      const before = await signUp(target, "before-dump");
      const dump = path.join(store.dataDir, "vrata.dump");
      const schema = store.postgresSchema ?? "";
      execFileSync("pg_dump", ["--format=custom", `--schema=${schema}`, `--file=${dump}`, url]);

      const refresh = before.tokens.refresh_token ?? "";
      await client.tokenRevocation(before.config, refresh);
      await expect(client.refreshTokenGrant(before.config, refresh)).rejects.toThrow();

      store = await store.restart(() => {
        execFileSync("pg_restore", ["--clean", "--if-exists", "--no-owner", `--dbname=${url}`, dump]);
      });
      const refreshed = await client.refreshTokenGrant(before.config, refresh);
      expect(refreshed.claims()?.sub).toBe(before.tokens.claims()?.sub);
    } finally {
      await store.dispose();
    }
  });
});
