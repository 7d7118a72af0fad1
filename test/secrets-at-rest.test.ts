import { execFile } from "node:child_process";
import { createHash, createPrivateKey, randomBytes, type JsonWebKey } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import * as client from "openid-client";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationSchema } from "../src/common/api/organization.ts";
import { templateSchema } from "../src/common/api/template.ts";
import { pathFor, routes } from "../src/common/routes.ts";
import { loadConfig } from "../src/server/config.ts";
import { pemBody } from "../src/server/providers/saml/pem.ts";
import { createSamlKeyPair, loadSamlSpCredentials } from "../src/server/providers/saml/sp-credentials.ts";
import { deriveInstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { startVrata } from "../src/server/start.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { freePort } from "./support/ports.ts";
import { postgresUrl } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";

// Issue 12: a copy of the database alone must yield no usable token, code, key or secret. A person
// signs in with an e-mail code and an app gets tokens; then the store is copied as an attacker would
// (the SQLite files, or pg_dump) and searched for every secret value the test saw. A SAML IdP is
// configured, so the instance has its SAML service-provider keys too.

const engines = [
  { name: "SQLite", postgres: undefined },
  ...(postgresUrl ? [{ name: "PostgreSQL", postgres: postgresUrl }] : []),
];

const email = "rita.secret@example.com";
const uriBase = "https://rest.example";

interface Dump {
  bytes: Buffer;
  /** The `id` column of every oidc_models row in the copy. */
  artifactIds: string[];
}

/** The SQLite database as copied off the disk, with its write-ahead log. */
function copySqlite(server: TestServer): Dump {
  const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-copy-"));
  try {
    const parts = ["", "-wal", "-shm"].flatMap((suffix) => {
      const file = path.join(server.dataDir, `vrata.sqlite${suffix}`);
      if (!fs.existsSync(file)) return [];
      fs.copyFileSync(file, path.join(copyDir, `vrata.sqlite${suffix}`));
      return [fs.readFileSync(file)];
    });
    const copy = new DatabaseSync(path.join(copyDir, "vrata.sqlite"));
    const rows = copy.prepare("select id from oidc_models").all() as { id: string }[];
    copy.close();
    return { bytes: Buffer.concat(parts), artifactIds: rows.map((row) => row.id) };
  } finally {
    fs.rmSync(copyDir, { recursive: true, force: true });
  }
}

/** pg_dump of the server's schema, in its plain SQL format. */
async function dumpPostgres(server: TestServer, url: string): Promise<Dump> {
  const { stdout } = await promisify(execFile)(
    "pg_dump",
    [`--schema=${server.postgresSchema ?? ""}`, `--dbname=${url}`],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const copyBlock = /^COPY \S+\.oidc_models \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(stdout);
  const idColumn = copyBlock?.[1]?.split(", ").indexOf("id") ?? -1;
  const rows = (copyBlock?.[2] ?? "").split("\n").filter((line) => line !== "");
  return {
    bytes: Buffer.from(stdout),
    artifactIds: rows.map((row) => row.split("\t")[idColumn] ?? ""),
  };
}

/** A SAML IdP's metadata in a configuration file of `dir`, naming it as provider `eid`. */
async function samlConfigFile(dir: string): Promise<string> {
  const keys = await createSamlKeyPair("At rest IdP", "signing");
  const metadata = samlify
    .IdentityProvider({
      entityID: "https://idp.rest.example/metadata",
      signingCert: keys.certificatePem,
      singleSignOnService: [
        { Binding: samlify.Constants.namespace.binding.redirect, Location: "https://idp.rest.example/sso" },
      ],
    })
    .getMetadata();
  fs.writeFileSync(path.join(dir, "idp.xml"), metadata);
  const provider = { key: "eid", type: "saml", name: { en: "eID", sl: "eID" }, metadataFile: "idp.xml" };
  const file = path.join(dir, "vrata.json");
  fs.writeFileSync(file, JSON.stringify({ providers: [provider] }));
  return file;
}

/** A value as text, and for one that encodes random bytes (base64url), those bytes in other forms too. */
function formsOf(value: string, encodesBytes: boolean): (string | Buffer)[] {
  if (!encodesBytes) return [value];
  const bytes = Buffer.from(value, "base64url");
  return [value, bytes, bytes.toString("hex"), bytes.toString("base64")];
}

describe.each(engines)("a copy of the store on $name", ({ postgres }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let config: client.Configuration;
  let clientSecret: string;
  let clientId: string;
  /** Every secret value the test obtained, by what it is. */
  const secrets = new Map<string, string>();
  let emailCode = "";
  let flowId = "";
  let refreshToken = "";
  let subject = "";
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-rest-config-"));

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      ...(postgres ? { postgresUrl: postgres } : {}),
      args: [...mailArgs(smtp.port), ...["--config", await samlConfigFile(configDir)]],
    });

    const owner = await consoleSignUp(server.url, "rest-owner");
    const created = await postJson(owner.api, "/api/a/create", {
      name: "At rest",
      idScopes: ["openid", "email"],
      variables: [{ name: "uriBase" }],
      clientsBackend: [
        {
          description: "backend",
          accessTokenType: "hmac",
          additionalScopes: ["offline_access"],
          redirectUriTemplates: ["{uriBase}/callback"],
        },
      ],
      // Its JWT access tokens stand for opaque tokens the store links them to.
      clientsService: [{ description: "service", accessTokenType: "jwt" }],
    });
    const template = templateSchema.parse(
      await (await owner.api(`/api/a/${((await created.json()) as { id: string }).id}`)).json(),
    );
    const { id: organizationId } = (await (
      await postJson(owner.api, "/api/o/create", { name: "At rest org" })
    ).json()) as { id: string };
    const organization = organizationSchema.parse(
      await (
        await postJson(owner.api, `/api/o/update/${organizationId}`, {
          version: 1,
          name: "At rest org",
          admins: [],
          applications: [
            { templateId: template.id, active: true, values: [{ name: "uriBase", value: uriBase }] },
          ],
        })
      ).json(),
    );
    clientId = organization.applications?.[0]?.clientsBackend[0]?.id ?? "";
    const secretOf = (id: string) =>
      organization.secrets?.find((shown) => shown.clientId === id)?.secret ?? "";
    clientSecret = secretOf(clientId);
    const serviceClientId = organization.applications?.[0]?.clientsService[0]?.id ?? "";
    const serviceSecret = secretOf(serviceClientId);
    const service = await client.discovery(
      new URL(server.issuer),
      serviceClientId,
      undefined,
      client.ClientSecretBasic(serviceSecret),
    );
    const serviceToken = (await client.clientCredentialsGrant(service)).access_token;

    const driver = await FlowDriver.start(
      server.issuer,
      { clientId, organizationId, applicationId: "", redirectUri: `${uriBase}/callback` },
      { scope: "openid email offline_access", prompt: "consent" },
      client.ClientSecretBasic(clientSecret),
    );
    flowId = driver.flowId;
    await driver.step("codeStart", { emailOrUsername: email });
    emailCode = codeIn(await smtp.waitFor(email));
    expect((await driver.step("codeComplete", { code: emailCode })).flow.completed).toEqual(["signup"]);
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id } });
    await driver.step("redirect");
    const callback = await driver.returnToApp();
    const tokens = await driver.exchange(callback);
    config = driver.config;
    refreshToken = tokens.refresh_token ?? "";
    subject = tokens.claims()?.sub ?? "";

    const flowSession = driver.jar.value(`__Host-session-${flowId}`) ?? "";
    const found = {
      "access token": tokens.access_token,
      "refresh token": refreshToken,
      "ID token": tokens.id_token ?? "",
      "authorization code": callback.searchParams.get("code") ?? "",
      "SSO session cookie": driver.jar.value("__Host-vrata.session") ?? "",
      "flow session cookie": flowSession,
      "flow session secret": flowSession.replace(/^vse-/, ""),
      "client secret": clientSecret,
      "service client secret": serviceSecret,
      "service JWT access token": serviceToken,
      "console access token": owner.tokens.access_token,
    };
    for (const [what, value] of Object.entries(found)) {
      expect(value, what).not.toBe("");
      secrets.set(what, value);
    }
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  const dump = () => (postgres ? dumpPostgres(server, postgres) : Promise.resolve(copySqlite(server)));

  it("holds none of the tokens, codes, cookies and client secrets", async () => {
    const { bytes } = await dump();
    // The copy is readable: what is not secret is there to be found.
    expect(bytes.includes(email)).toBe(true);
    expect(bytes.includes(clientId)).toBe(true);

    for (const [what, value] of secrets) expect(bytes.includes(value), what).toBe(false);
    // The opaque token behind a JWT access token is never shown, so its link is checked to be sealed.
    expect(bytes.includes('{"token":"sealed:v1:')).toBe(true);
    expect(/"token":"(?!sealed:v1:)/.test(bytes.toString("latin1")), "opaque token of a JWT").toBe(false);
    const codeAsText = new RegExp(`(?<![0-9])${emailCode}(?![0-9])`);
    expect(codeAsText.test(bytes.toString("latin1")), "e-mail code").toBe(false);
    // A plain hash of the code beside its flow ID would give the code away to a million guesses.
    const plainCodeHash = createHash("sha256").update(`${flowId}:${emailCode}`).digest();
    for (const form of [plainCodeHash, plainCodeHash.toString("base64url"), plainCodeHash.toString("hex")]) {
      expect(bytes.includes(form), "plain hash of the e-mail code").toBe(false);
    }
  });

  it("holds none of the private signing keys, the SAML keys, the cookie secret or the instance key", async () => {
    const { bytes } = await dump();
    const { signingKeys, cookieSecret } = server.opened;
    const instanceKey = fs.readFileSync(path.join(server.dataDir, "secret.key"), "utf8").trim();
    // These are the keys the server signs with: the published ones are their public halves.
    const published = (await (await fetch(server.url + routes.OIDCKeys.path)).json()) as {
      keys: { kid: string }[];
    };
    expect(published.keys.map((key) => key.kid).toSorted()).toEqual(
      signingKeys.map((key) => key.kid).toSorted(),
    );

    // The SAML keys, opened as the server opens them: their certificates are the ones it publishes.
    const saml = await loadSamlSpCredentials(
      server.db,
      deriveInstanceSecrets(Buffer.from(instanceKey, "base64")).sealer,
      "Vrata",
    );
    const spMetadata = await (
      await fetch(`${server.url}${pathFor("SAMLMetadata", { provider: "eid" })}`)
    ).text();
    const privateKeys: [string, JsonWebKey][] = signingKeys.map((key) => [`${key.alg} private key`, key]);
    for (const use of ["signing", "encryption"] as const) {
      const { privateKeyPem, certificatePem } = saml[use];
      expect(spMetadata).toContain(`<md:KeyDescriptor use="${use}">`);
      expect(spMetadata).toContain(pemBody(certificatePem));
      privateKeys.push([`SAML ${use} key`, createPrivateKey(privateKeyPem).export({ format: "jwk" })]);
      for (const line of privateKeyPem.split("\n").filter((text) => text.length === 64)) {
        expect(bytes.includes(line), `SAML ${use} key PEM`).toBe(false);
      }
    }

    const privateMembers = ["d", "p", "q", "dp", "dq", "qi"] as const;
    for (const [what, key] of privateKeys) {
      expect(key.d).toBeDefined();
      for (const member of privateMembers) {
        const value = key[member];
        if (value === undefined) continue;
        for (const form of formsOf(value, true)) {
          expect(bytes.includes(form), `${what} ${member}`).toBe(false);
        }
      }
    }
    for (const form of formsOf(cookieSecret, true)) expect(bytes.includes(form), "cookie secret").toBe(false);
    for (const form of [instanceKey, Buffer.from(instanceKey, "base64")]) {
      expect(bytes.includes(form), "instance key").toBe(false);
    }
  });

  it("gives nothing that works as a refresh or access token", async () => {
    const { artifactIds } = await dump();
    expect(artifactIds.length).toBeGreaterThan(3);
    for (const id of artifactIds) {
      await expect(client.refreshTokenGrant(config, id), `stored ID ${id}`).rejects.toMatchObject({
        error: "invalid_grant",
      });
      await expect(client.fetchUserInfo(config, id, subject)).rejects.toBeDefined();
    }
    // The token the app holds still works: the store finds it by its value.
    const refreshed = await client.refreshTokenGrant(config, refreshToken);
    expect(refreshed.access_token).toBeDefined();
    refreshToken = refreshed.refresh_token ?? "";
  });

  it("cannot be opened with another instance key: the start stops with one line", async () => {
    const otherKeyFile = path.join(server.dataDir, "other.key");
    fs.writeFileSync(otherKeyFile, randomBytes(32).toString("base64"), { mode: 0o600 });
    const args = [
      "--port",
      String(await freePort()),
      "--data",
      server.dataDir,
      "--secret-key-file",
      otherKeyFile,
    ];
    const start = startVrata(
      loadConfig([...args, ...(postgres ? ["--database", postgres] : [])], {}),
      server.postgresSchema ? { postgresSchema: server.postgresSchema } : {},
    );
    await expect(start).rejects.toThrow(
      /^the store's keys and secrets were sealed with another secret key: start with the key they were sealed with \(--secret-key-file or VRATA_SECRET_KEY\)$/,
    );
    // Nothing was replaced: the server's own key still opens everything.
    expect((await client.refreshTokenGrant(config, refreshToken)).access_token).toBeDefined();
  });
});

describe("files of a new data folder", () => {
  it("are readable by their owner only", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-modes-"));
    const dataDir = path.join(root, "data");
    const vrata = await startVrata(
      loadConfig(["--port", String(await freePort()), "--data", dataDir, "--log-level", "silent"], {}),
    );
    try {
      const modeOf = (file: string) => fs.statSync(path.join(dataDir, file)).mode & 0o777;
      expect(modeOf(".")).toBe(0o700);
      expect(modeOf("secret.key")).toBe(0o600);
      expect(modeOf("tls")).toBe(0o700);
      expect(modeOf("tls/ca-key.pem")).toBe(0o600);
      expect(modeOf("tls/localhost-key.pem")).toBe(0o600);
      for (const file of ["vrata.sqlite", "vrata.sqlite-wal", "vrata.sqlite-shm"]) {
        expect(modeOf(file), file).toBe(0o600);
      }
    } finally {
      await vrata.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
