import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, HelpRequested, loadConfig } from "./config.ts";

const load = (args: string[], env: Record<string, string> = {}) => loadConfig(args, env);
const failure = (args: string[], env: Record<string, string> = {}) => {
  try {
    load(args, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a configuration error");
};

describe("configuration", () => {
  it("has working defaults", () => {
    const config = load([]);
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve("data"));
    expect(config.issuer).toBe("https://localhost:8080");
    expect(config.database).toEqual({ kind: "sqlite", file: path.resolve("data/vrata.sqlite") });
    expect(config.tls).toEqual({ kind: "generated" });
    expect(config.title).toBe("Vrata");
  });

  it("reads flags before environment variables", () => {
    const env = { VRATA_PORT: "9000", VRATA_DATA: "/srv/env", VRATA_TITLE: "From env" };
    const config = load(["--port", "9443", "--data", "/some/dir"], env);
    expect(config.port).toBe(9443);
    expect(config.dataDir).toBe("/some/dir");
    expect(config.issuer).toBe("https://localhost:9443");
    expect(config.title).toBe("From env");
  });

  it("takes PostgreSQL, TLS files and an issuer", () => {
    const config = load(
      ["--issuer", "https://id.example.com/", "--tls-cert", "c.pem", "--tls-key", "k.pem"],
      { VRATA_DATABASE_URL: "postgres://vrata@db/vrata" },
    );
    expect(config.issuer).toBe("https://id.example.com");
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://vrata@db/vrata" });
    expect(config.tls).toEqual({
      kind: "files",
      certFile: path.resolve("c.pem"),
      keyFile: path.resolve("k.pem"),
    });
  });

  it("listens on plain HTTP behind a proxy only with an explicit issuer", () => {
    expect(load(["--behind-proxy", "--issuer", "https://id.example.com"]).tls).toEqual({ kind: "proxy" });
    expect(load([], { VRATA_BEHIND_PROXY: "true", VRATA_ISSUER: "https://id.example.com" }).tls.kind).toBe(
      "proxy",
    );
    expect(failure(["--behind-proxy"])).toBe("--behind-proxy needs --issuer with the public https:// origin");
  });

  it("takes the instance key from the data folder, a file or the environment, the flag first", () => {
    const key = "q".repeat(43) + "=";
    expect(load(["--data", "/srv/vrata"]).secretKey).toEqual({
      kind: "file",
      file: "/srv/vrata/secret.key",
      createIfMissing: true,
    });
    const fromFile = { kind: "file", file: path.resolve("vrata.key"), createIfMissing: false };
    expect(load(["--secret-key-file", "vrata.key"]).secretKey).toEqual(fromFile);
    expect(load([], { VRATA_SECRET_KEY_FILE: "vrata.key" }).secretKey).toEqual(fromFile);
    expect(load([], { VRATA_SECRET_KEY: key }).secretKey).toEqual({ kind: "value", value: key });
    expect(load(["--secret-key-file", "vrata.key"], { VRATA_SECRET_KEY: key }).secretKey).toEqual(fromFile);
    expect(failure([], { VRATA_SECRET_KEY: key, VRATA_SECRET_KEY_FILE: "vrata.key" })).toBe(
      "VRATA_SECRET_KEY and VRATA_SECRET_KEY_FILE cannot both be set",
    );
    // The key is never a flag: process lists show flags to every user of the machine.
    expect(failure(["--secret-key", key])).toContain("--secret-key");
  });

  it("explains each bad value in one line", () => {
    const messages = [
      failure(["--port", "http"]),
      failure(["--port", "70000"]),
      failure([], { VRATA_PORT: "-1" }),
      failure(["--issuer", "http://id.example.com"]),
      failure(["--issuer", "https://id.example.com/path"]),
      failure(["--database", "mysql://db"]),
      failure(["--tls-cert", "c.pem"]),
      failure(["--log-level", "loud"]),
      failure(["--title", "  "]),
      failure(["--no-such-flag"]),
      failure([], { VRATA_BEHIND_PROXY: "maybe" }),
      failure([], { VRATA_SECRET_KEY: "short-secret-value" }),
    ];
    for (const message of messages) expect(message).not.toContain("\n");
    expect(messages[0]).toMatch(/^--port .*\(got "http"\)$/);
    expect(messages[2]).toMatch(/^VRATA_PORT .*\(got "-1"\)$/);
    expect(messages[3]).toContain("must be an https:// origin");
    expect(messages[5]).toContain("postgres://");
    expect(messages[6]).toBe("--tls-cert and --tls-key must be given together");
    expect(messages[9]).toContain("--no-such-flag");
    // A bad key is explained without repeating it.
    expect(messages[11]).toBe(
      "VRATA_SECRET_KEY must be 32 random bytes in base64, e.g. from `openssl rand -base64 32`",
    );
  });

  it("prints help listing every flag with its variable", () => {
    expect(() => load(["--help"])).toThrow(HelpRequested);
    try {
      load(["--help"]);
    } catch (error) {
      const help = (error as HelpRequested).message;
      for (const text of [
        "--port",
        "VRATA_PORT",
        "--database",
        "VRATA_DATABASE_URL",
        "--behind-proxy",
        "VRATA_SECRET_KEY",
      ]) {
        expect(help).toContain(text);
      }
    }
  });
});
