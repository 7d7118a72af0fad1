import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vrataCommand } from "./support/command.ts";
import { consoleApp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { freePort } from "./support/ports.ts";
import { trustCa } from "./support/server.ts";

// What the `vrata` command writes, as a terminal or a log collector gets it: readable lines when asked,
// one fatal JSON line for a crash, and never the password of a database URL.

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-log-output-"));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A process of Node.js, its output read whole. */
function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** Resolves once standard output holds a line that `match` accepts. */
    lineLike: (match: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const look = () => {
          const found = stdout.split("\n").find((line) => match.test(line));
          if (found !== undefined) resolve(found);
          return found !== undefined;
        };
        if (look()) return;
        child.stdout.on("data", look);
        void exited.then(
          () => look() || reject(new Error(`exited without such a line:\n${stdout}${stderr}`)),
        );
      }),
  };
}

describe("a database URL's password", () => {
  const password = "Pa55-w0rd-nobody-may-read";

  it.each([["1"], ["2"]])(
    "is never written when the database does not answer (--workers %s)",
    async (workers) => {
      // A port nothing listens on: every attempt is refused, and the start gives up after a second.
      const url = `postgres://vrata:${password}@127.0.0.1:${await freePort()}/vrata`;
      const vrata = run([
        ...vrataCommand,
        ...["--port", String(await freePort()), "--data", dataDir, "--workers", workers],
        ...["--database", url, "--database-wait", "1", "--log-level", "debug"],
      ]);
      expect(await vrata.exited).toBe(2);
      const { stdout, stderr } = vrata.output();
      expect(stderr).toMatch(/^vrata: --database: /);
      expect(stdout).toContain("127.0.0.1");
      expect(stdout + stderr).not.toContain(password);
    },
  );

  it("is never written when the URL is refused, from the environment either", async () => {
    const vrata = run([...vrataCommand, "--data", dataDir], {
      ...process.env,
      VRATA_DATABASE_URL: `mysql://vrata:${password}@db/vrata`,
    });
    expect(await vrata.exited).toBe(2);
    const { stdout, stderr } = vrata.output();
    expect(stderr).toContain("VRATA_DATABASE_URL must be a postgres://");
    expect(stdout + stderr).not.toContain(password);
  });
});

describe("--log-format pretty", () => {
  it("writes one readable line per entry, in the primary and in the workers", async () => {
    const vrata = run([
      ...vrataCommand,
      ...["--port", String(await freePort()), "--data", dataDir, "--workers", "2", "--log-format", "pretty"],
    ]);
    try {
      const serving = await vrata.lineLike(/Vrata is serving/);
      expect(serving).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}Vrata is serving https:\/\/localhost:\d+ .* pid=\d+$/,
      );
      const ready = await vrata.lineLike(/worker ready/);
      expect(ready).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}worker ready .* pid=\d+$/);
    } finally {
      vrata.child.kill("SIGTERM");
      await vrata.exited;
    }
    for (const line of vrata.output().stdout.split("\n").filter(Boolean)) expect(line).not.toMatch(/^\{/);
  });
});

describe("a crash", () => {
  const crashing = (fault: string) => [
    "--input-type=module",
    "--eval",
    [
      `const { logCrashes } = await import(${JSON.stringify(path.resolve("src/server/operations/crash-log.ts"))});`,
      'logCrashes({ logFormat: "auto" });',
      fault,
    ].join("\n"),
  ];

  it.each([
    [
      "an exception nothing catches",
      'setTimeout(() => { throw new RangeError("out of range"); });',
      "RangeError",
    ],
    ["a rejection nothing handles", 'void Promise.reject(new TypeError("not a thing"));', "TypeError"],
  ])("by %s is one fatal JSON line, and the process ends with 1", async (_name, fault, type) => {
    const node = run(crashing(fault));
    expect(await node.exited).toBe(1);
    const { stdout, stderr } = node.output();
    expect(stderr).toBe("");
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] ?? "") as { level: number; msg: string; pid: number; err: object };
    expect(record).toMatchObject({ level: 60, pid: node.child.pid, err: { type } });
    expect((record.err as { stack: string }).stack).toContain(`${type}: `);
  });
});

describe("an e-mail without an SMTP server", () => {
  it("is printed as its text, for the person copying the code, and the log's entry does not hold it", async () => {
    const port = await freePort();
    const mailData = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-log-mail-"));
    const vrata = run([
      ...vrataCommand,
      ...["--port", String(port), "--data", mailData, "--workers", "1", "--log-format", "json"],
    ]);
    try {
      await vrata.lineLike(/Vrata is serving/);
      trustCa(path.join(mailData, "tls", "ca.pem"));
      const base = `https://localhost:${port}`;
      const driver = await FlowDriver.start(base, await consoleApp(base));
      expect((await driver.step("codeStart", { emailOrUsername: "tina@example.com" })).status).toBe(200);
      await vrata.lineLike(/^----- end of e-mail$/);

      const lines = vrata.output().stdout.split("\n");
      const begins = lines.indexOf("----- e-mail to tina@example.com: Your code for Vrata");
      const ends = lines.indexOf("----- end of e-mail");
      expect(begins).toBeGreaterThan(-1);
      const text = lines.slice(begins + 1, ends);
      const code = text.find((line) => /^\d{6}$/.test(line)) ?? "";
      expect(code).toMatch(/^\d{6}$/);
      expect(text).toContain(
        `You can also open this link to enter the code: ${base}/auth/${driver.flowId}#code=${code}`,
      );
      // The structured log stays JSON lines, and its entry names the e-mail without its text.
      const entry = await vrata.lineLike(/e-mail not sent, no SMTP server/);
      expect(JSON.parse(entry)).toMatchObject({
        msg: "e-mail not sent, no SMTP server",
        to: ["tina@example.com"],
      });
      expect(entry).not.toContain(code);
    } finally {
      vrata.child.kill("SIGTERM");
      await vrata.exited;
      fs.rmSync(mailData, { recursive: true, force: true });
    }
  });
});
