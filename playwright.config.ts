import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = process.env.VRATA_E2E_PORT ?? "18443";
const baseURL = `https://localhost:${port}`;

/**
 * A temporary folder named by the environment variable. Workers load this file too and inherit the
 * variable: only the main process creates (and later removes) the folder.
 */
function temporaryFolder(variable: string, prefix: string): string {
  const existing = process.env[variable];
  if (existing !== undefined) return existing;
  const created = mkdtempSync(path.join(tmpdir(), prefix));
  process.env[variable] = created;
  process.on("exit", () => rmSync(created, { recursive: true, force: true }));
  return created;
}
const dataDir = temporaryFolder("VRATA_E2E_DATA", "vrata-e2e-");
// The e-mail the server sends, one JSON file a message (e2e/support/serve.ts, e2e/support/mail.ts).
temporaryFolder("VRATA_E2E_MAIL_DIR", "vrata-e2e-mail-");

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  // Many tests walk a person through several real sign-ins in several browsers, against a server of two
  // worker processes, on a machine of two cores that may be busy with more: limits that only a hang
  // reaches, three times what the slowest test takes on a loaded machine. Waits are for what the page
  // shows, so a generous limit costs nothing when things go well.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    ignoreHTTPSErrors: true,
    actionTimeout: 30_000,
    navigationTimeout: 45_000,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The server with a loopback SMTP receiver for its e-mail; the variables reach it from here.
    // Two workers: every test also shows that any worker serves any step of a flow.
    command: `node e2e/support/serve.ts --port ${port} --data ${dataDir} --workers 2`,
    url: `${baseURL}/context.json`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 180_000,
    // serve.ts stops the server it started; the server takes up to 10 s to finish its requests.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
