import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, HelpRequested, loadConfig, withoutPassword } from "./config.ts";

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

  it("rotates signing keys every 90 days with an hour's lead unless told otherwise", () => {
    expect(load([]).keyRotation).toEqual({ days: 90, leadMinutes: 60 });
    const config = load(["--key-rotation-days", "0"], { VRATA_KEY_LEAD_MINUTES: "5" });
    expect(config.keyRotation).toEqual({ days: 0, leadMinutes: 5 });
    expect(failure(["--key-rotation-days", "1.5"])).toMatch(/^--key-rotation-days .*\(got "1.5"\)$/);
    expect(failure(["--key-rotation-days", "4000"])).toBe(
      '--key-rotation-days must be at most 3650 (ten years) (got "4000")',
    );
    expect(failure([], { VRATA_KEY_LEAD_MINUTES: "-1" })).toBe(
      'VRATA_KEY_LEAD_MINUTES must be 0 or more (got "-1")',
    );
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
    // zod's English messages, which only the server loads (validation-messages.ts).
    expect(messages[0]).toBe('--port expected number, received NaN (got "http")');
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

  it("never repeats a database URL's password", () => {
    expect(failure(["--database", "mysql://vrata:s3cret@db/vrata"])).toBe(
      '--database must be a postgres:// or postgresql:// URL (got "mysql://vrata:***@db/vrata")',
    );
    // A password holding "@" or "/", or a URL that does not parse at all, is hidden whole.
    expect(withoutPassword("postgres://vrata:p@ss/w0rd@db:5432/vrata")).toBe(
      "postgres://vrata:***@db:5432/vrata",
    );
    expect(withoutPassword("postgres://vrata:s3cret@db:port/vrata")).toBe(
      "postgres://vrata:***@db:port/vrata",
    );
    expect(withoutPassword("postgres://vrata@db/vrata")).toBe("postgres://vrata@db/vrata");
  });

  it("writes the log as JSON or readable lines, by default as suits a terminal", () => {
    expect(load([]).logFormat).toBe("auto");
    expect(load(["--log-format", "pretty"]).logFormat).toBe("pretty");
    expect(load([], { VRATA_LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(failure(["--log-format", "yaml"])).toContain("--log-format");
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
        "--key-rotation-days",
        "vrata keys rotate",
      ]) {
        expect(help).toContain(text);
      }
    }
  });
});

describe("configuration file", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-config-"));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  const write = (content: unknown) => {
    const file = path.join(folder, `vrata-${++files}.json`);
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  };
  const google = {
    key: "google",
    type: "oidc",
    name: { en: "Google", sl: "Google" },
    preset: "google",
    clientId: "client-1",
    clientSecretFile: "google.secret",
  };

  it("holds settings that flags and the environment override, and providers with presets", () => {
    const file = write({ port: 9000, title: "From file", "mail-starttls": false, providers: [google] });
    const config = load(["--config", file, "--port", "9443"]);
    expect(config.port).toBe(9443);
    expect(config.title).toBe("From file");
    expect(load([], { VRATA_CONFIG: file, VRATA_TITLE: "From env" }).title).toBe("From env");
    expect(config.providers).toEqual([
      {
        key: "google",
        type: "oidc",
        name: { en: "Google", sl: "Google" },
        issuer: "https://accounts.google.com",
        clientId: "client-1",
        clientSecret: { kind: "file", file: path.join(folder, "google.secret") },
        tokenEndpointAuthMethod: "client_secret_basic",
        scopes: ["openid", "email", "profile"],
        forcePkce: false,
        entry: `${file}: providers[0]`,
      },
    ]);
    expect(load([]).providers).toEqual([]);
  });

  it("fills Facebook's token endpoint and PKCE, and takes a generic provider's issuer and scopes", () => {
    const file = write({
      providers: [
        {
          ...google,
          key: "fb",
          preset: "facebook",
          clientSecretFile: undefined,
          clientSecretEnv: "FB_SECRET",
        },
        {
          key: "corp",
          type: "oidc",
          name: { en: "Corporate", sl: "Podjetje" },
          issuer: "https://id.corp.example/",
          clientId: "vrata",
          scopes: ["openid", "email"],
          forcePkce: true,
        },
      ],
    });
    const [facebook, corp] = load(["--config", file]).providers;
    expect(facebook).toMatchObject({
      issuer: "https://www.facebook.com",
      tokenEndpoint: "https://graph.facebook.com/oauth/access_token",
      forcePkce: true,
      clientSecret: { kind: "env", name: "FB_SECRET" },
    });
    expect(corp).toMatchObject({
      // As written: an issuer ending in "/" is another issuer than the one without it.
      issuer: "https://id.corp.example/",
      scopes: ["openid", "email"],
      forcePkce: true,
      // Without a secret, a public client.
      tokenEndpointAuthMethod: "none",
    });
    expect(corp && "clientSecret" in corp ? corp.clientSecret : "none").toBeUndefined();
  });

  it("takes a token endpoint authentication method, with a secret only where it sends one", () => {
    const methodOf = (fields: Record<string, unknown>) => {
      const [provider] = load(["--config", write({ providers: [{ ...google, ...fields }] })]).providers;
      return provider?.type === "oidc" ? provider.tokenEndpointAuthMethod : undefined;
    };
    expect(methodOf({})).toBe("client_secret_basic");
    expect(methodOf({ tokenEndpointAuthMethod: "client_secret_post" })).toBe("client_secret_post");
    expect(methodOf({ tokenEndpointAuthMethod: "private_key_jwt", clientSecretFile: undefined })).toBe(
      "private_key_jwt",
    );
    const failureOf = (fields: Record<string, unknown>) =>
      failure(["--config", write({ providers: [{ ...google, ...fields }] })]);
    expect(failureOf({ tokenEndpointAuthMethod: "private_key_jwt" })).toContain(
      "providers[0].tokenEndpointAuthMethod private_key_jwt signs with Vrata's own key and takes no clientSecretFile or clientSecretEnv",
    );
    expect(
      failureOf({ tokenEndpointAuthMethod: "client_secret_post", clientSecretFile: undefined }),
    ).toContain(
      "providers[0].tokenEndpointAuthMethod sends a client secret: give clientSecretFile or clientSecretEnv",
    );
    expect(failureOf({ tokenEndpointAuthMethod: "client_secret_jwt" })).toContain(
      "providers[0].tokenEndpointAuthMethod",
    );
  });

  it("takes SAML providers with metadata from a URL or a file", () => {
    const saml = {
      key: "eid",
      type: "saml",
      name: { en: "National eID", sl: "Nacionalna e-identiteta" },
      metadataFile: "idp.xml",
      identifyBy: { attribute: "vatNumber" },
      attributes: { email: "mail", fullName: "cn" },
    };
    const [provider] = load(["--config", write({ providers: [saml] })]).providers;
    expect(provider).toMatchObject({ ...saml, metadataFile: path.join(folder, "idp.xml") });
  });

  it("explains each mistake in one line, naming the file and the entry", () => {
    const failureOf = (content: unknown) => failure(["--config", write(content)]);
    const messages = [
      failure(["--config", path.join(folder, "missing.json")]),
      failureOf("{ not json"),
      failureOf([]),
      failureOf({ port: "http" }),
      failureOf({ "no-such-setting": 1 }),
      failureOf({ providers: [{ ...google, clientSecret: "s3cret" }] }),
      failureOf({ providers: [{ ...google, preset: undefined }] }),
      failureOf({ providers: [{ ...google, key: "a/b" }] }),
      failureOf({ providers: [{ ...google, key: "password" }] }),
      failureOf({ providers: [google, google] }),
      failureOf({ providers: [{ ...google, type: "ldap" }] }),
      failureOf({ providers: [{ ...google, issuer: "http://accounts.example" }] }),
      failureOf({ providers: [{ ...google, clientSecretEnv: "SECRET" }] }),
      failureOf({
        providers: [{ key: "eid", type: "saml", name: { en: "eID", sl: "eID" } }],
      }),
      failureOf({ providers: [{ ...google, name: { en: "Google" } }] }),
      failureOf({ "secret-key": "q".repeat(43) + "=" }),
    ];
    for (const message of messages) expect(message).not.toContain("\n");
    expect(messages[0]).toMatch(/^cannot read the configuration file .*missing\.json \(ENOENT\)$/);
    expect(messages[1]).toMatch(/vrata-\d+\.json: not JSON/);
    expect(messages[2]).toContain("must hold a JSON object");
    expect(messages[3]).toMatch(/"port" .*\(got "http"\)$/);
    expect(messages[4]).toContain('"no-such-setting" is not a setting');
    expect(messages[5]).toContain("providers[0].clientSecret: keep the secret out of this file");
    expect(messages[5]).not.toContain("s3cret");
    expect(messages[6]).toContain("providers[0].issuer needs an issuer");
    expect(messages[7]).toContain("providers[0].key must be 1-64 letters");
    expect(messages[8]).toContain("providers[0].key is the name of one of Vrata's own sign-in methods");
    expect(messages[9]).toContain('provider key "google" is used twice');
    expect(messages[10]).toContain('providers[0].type must be "oidc" or "saml"');
    expect(messages[11]).toContain("providers[0].issuer must be an https:// URL");
    expect(messages[12]).toContain("providers[0] takes clientSecretFile or clientSecretEnv, not both");
    expect(messages[13]).toContain("providers[0] takes exactly one of metadataUrl and metadataFile");
    expect(messages[14]).toContain("providers[0].name.sl");
    expect(messages[15]).toContain('"secret-key" is not a setting');
  });
});
