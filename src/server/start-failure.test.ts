import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { FolderError, makeFolder } from "./folders.ts";
import { describeStartFailure } from "./start-failure.ts";

const postgres = { port: 8443, database: { kind: "postgres", url: "postgres://db.internal/vrata" } } as const;
const errno = (code: string, extra: object = {}) =>
  Object.assign(new Error(`${code} happened`), { code, ...extra });

describe("a start that cannot succeed says why in one line", () => {
  it("names the database and where it refused, also when the error is the cause of another", () => {
    const refused = errno("ECONNREFUSED", { address: "10.0.0.5", port: 5432 });
    const wrapped = new Error("database migration failed", { cause: refused });
    expect(describeStartFailure(wrapped, postgres)).toBe("--database: connection refused at 10.0.0.5:5432");
    expect(describeStartFailure(errno("ENOTFOUND", { hostname: "db.internal" }), postgres)).toBe(
      "--database: host db.internal not found",
    );
    const badPassword = errno("28P01");
    badPassword.message = 'password authentication failed for user "vrata"';
    expect(describeStartFailure(badPassword, postgres)).toBe(
      '--database: password authentication failed for user "vrata"',
    );
  });

  it("names the port that is taken", () => {
    expect(describeStartFailure(errno("EADDRINUSE"), postgres)).toBe(
      "--port: port 8443 is already in use (choose another)",
    );
  });

  it("refuses port 0, which the issuer would name", () => {
    expect(() => loadConfig(["--port", "0"], {})).toThrow(ConfigError);
    expect(() => loadConfig(["--port", "0"], {})).toThrow("--port must be between 1 and 65535");
  });
});

describe("data folders", () => {
  it("that cannot exist fail at once with the reason, instead of hanging", () => {
    expect(() => makeFolder("/proc/vrata-data")).toThrow(FolderError);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-folders-"));
    try {
      fs.writeFileSync(path.join(root, "file"), "");
      expect(() => makeFolder(path.join(root, "file", "data"))).toThrow(
        `cannot create the folder ${path.join(root, "file", "data")}: ${path.join(root, "file")} is not a folder`,
      );
      const made = path.join(root, "a", "b");
      makeFolder(made);
      expect(fs.statSync(made).mode & 0o777).toBe(0o700);
      // Again: nothing to do.
      makeFolder(made);
      expect(
        describeStartFailure(new FolderError("cannot create the folder /x: permission denied"), postgres),
      ).toBe("--data: cannot create the folder /x: permission denied");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
