import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = process.env.VRATA_E2E_PORT ?? "18443";
const baseURL = `https://localhost:${port}`;

// Workers load this file too; only the main process creates (and later removes) the data folder.
if (process.env.VRATA_E2E_DATA === undefined) {
  const created = mkdtempSync(path.join(tmpdir(), "vrata-e2e-"));
  process.env.VRATA_E2E_DATA = created;
  process.on("exit", () => rmSync(created, { recursive: true, force: true }));
}
const dataDir = process.env.VRATA_E2E_DATA;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    ignoreHTTPSErrors: true,
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
    command: `node src/server/main.ts --port ${port} --data ${dataDir}`,
    url: `${baseURL}/context.json`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
