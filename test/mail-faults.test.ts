import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCa, createServerCertificate } from "../src/server/http/tls-generate.ts";
import { registerTestApp } from "./support/apps.ts";
import { vrataCommand } from "./support/command.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { freePort } from "./support/ports.ts";
import { storeEngines } from "./support/postgres.ts";
import { RunningCommand } from "./support/running-command.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";
import { rateLimits } from "../src/common/limits.ts";

// An SMTP server that is down, refuses a message or cannot be trusted: the person asking for a code
// is told to try again (never a 500), and the operator is told at start.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(storeEngines)("a failed send at the code step on $name", ({ url }) => {
  async function serverMailingTo(smtpPort: number): Promise<TestServer> {
    const server = await startTestServer({ args: mailArgs(smtpPort), ...(url ? { postgresUrl: url } : {}) });
    cleanups.push(() => server.dispose());
    return server;
  }

  it("is answered 503 mailUnavailable without using up the limits, and the code goes out once mail is back", async () => {
    const smtpPort = await freePort();
    const server = await serverMailingTo(smtpPort);
    const driver = await FlowDriver.start(server.issuer, await registerTestApp(server.db, "Notes"));

    // More failed sends than the recipient may be sent codes: none of them counts against it.
    for (let attempt = 0; attempt <= rateLimits.codesPerRecipient.limit; attempt++) {
      const response = await driver.raw("codeStart", { emailOrUsername: "mia@example.com" });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: "mailUnavailable" });
    }
    expect((await driver.get()).codesSent).toBeUndefined();

    const smtp = await startSmtpReceiver({ port: smtpPort });
    cleanups.push(() => smtp.close());
    // No resend cooldown either: the failed sends left no code behind.
    const sent = await driver.step("codeStart", { emailOrUsername: "mia@example.com" });
    expect(sent).toMatchObject({ status: 200, flow: { providers: ["code"], codesSent: 1 } });
    const mail = await smtp.waitFor("mia@example.com");
    const done = await driver.step("codeComplete", { code: codeIn(mail) });
    expect(done.flow.completed).toEqual(["signup"]);
  }, 300_000);

  it("is tried again within the request when the SMTP server refuses the message once", async () => {
    let refusals = 0;
    const smtp = await startSmtpReceiver({
      onMessage: () => {
        if (refusals > 0) return Promise.resolve();
        refusals++;
        return Promise.reject(new Error("try again later"));
      },
    });
    cleanups.push(() => smtp.close());
    const server = await serverMailingTo(smtp.port);
    const driver = await FlowDriver.start(server.issuer, await registerTestApp(server.db, "Notes"));

    const sent = await driver.step("codeStart", { emailOrUsername: "noah@example.com" });
    expect(sent).toMatchObject({ status: 200, flow: { codesSent: 1 } });
    expect(refusals).toBe(1);
    expect(smtp.messages).toHaveLength(1);
    const done = await driver.step("codeComplete", { code: codeIn(await smtp.waitFor("noah@example.com")) });
    expect(done.flow.completed).toEqual(["signup"]);
  });
});

describe("the SMTP server at start", () => {
  it("is named in a warning with its cause when its certificate is not trusted, and Vrata serves", async () => {
    const ca = await createCa();
    const smtp = await startSmtpReceiver({ tls: await createServerCertificate(ca, ["127.0.0.1"]) });
    cleanups.push(() => smtp.close());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-test-"));
    cleanups.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        ...vrataCommand,
        ...["--port", String(port), "--data", dataDir],
        ...["--mail-host", "127.0.0.1", "--mail-port", String(smtp.port), "--mail-starttls"],
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const command = new RunningCommand(child);
    cleanups.push(() => (child.kill("SIGTERM"), command.exited));

    const warning = await command.next((line) => line.msg.startsWith("the SMTP server"));
    expect(warning.msg).toContain(`127.0.0.1:${smtp.port}`);
    expect(warning.msg).toMatch(/certificate/);
    await command.next((line) => line.msg.startsWith("Vrata is serving"));
    expect(smtp.messages).toHaveLength(0);
  }, 300_000);
});
