import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicApplicationSchema, type ConfiguredClient } from "../src/common/api/organization.ts";
import { pathFor } from "../src/common/routes.ts";
import {
  secretVariable,
  snippetsFor,
  type SnippetLibrary,
} from "../src/web/partials/organization/snippets.ts";
import { consoleSignUp } from "./support/console.ts";
import { organizationWithApp, type ConsoleUser } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// The configuration the Set-up page gives to copy runs as it is: each snippet whose tool is on this
// machine is run against a real server, with nothing but the secret and the local CA given to it.

const run = promisify(execFile);

describe.each(storeEngines)("the Set-up page's configuration to copy on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;
  let folder: string;
  let clients: ConfiguredClient[];
  let serviceSecret: string;
  let caFile: string;

  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    caFile = server.tls?.caFile ?? "";
    owner = await consoleSignUp(server.issuer, "sonja");
    const { organization, app } = await organizationWithApp(owner, "Orders", {
      appScopes: [{ name: "orders:read", description: { en: "Read orders", sl: "Branje naročil" } }],
      clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"], additionalScopes: ["orders:read"] }],
      clientsService: [{ additionalScopes: ["orders:read"] }],
    });
    const answer = await owner.api(
      `/api${pathFor("OrganizationApp", { id: app.organizationId, appId: app.applicationId })}`,
    );
    const application = publicApplicationSchema.parse(await answer.json());
    clients = application.clients ?? [];
    expect(application.localCaFile).toBe(caFile);
    serviceSecret = organization.secrets?.[0]?.secret ?? "";
    // The snippets import the installed libraries, as in an app's own folder.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-snippets-"));
    fs.symlinkSync(path.resolve("node_modules"), path.join(folder, "node_modules"));
  });
  afterAll(async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    await server.dispose();
  });

  const snippetOf = (kind: ConfiguredClient["kind"], library: SnippetLibrary) => {
    const client = clients.find((candidate) => candidate.kind === kind);
    if (!client) throw new Error(`no ${kind} client`);
    const snippet = snippetsFor({ issuer: server.issuer, client, caFile }).find(
      (candidate) => candidate.library === library,
    );
    if (!snippet) throw new Error(`no ${library} snippet for the ${kind} client`);
    return { client, code: snippet.code };
  };
  /** What the app's environment gives the snippet: the secret, and trust in the local CA. */
  const environment = () => ({
    ...process.env,
    [secretVariable]: serviceSecret,
    NODE_EXTRA_CA_CERTS: caFile,
  });

  /** Runs a Node.js module that imports the snippet (saved as snippet.mjs); returns what it prints. */
  async function runWithNode(code: string, runner: string): Promise<string> {
    fs.writeFileSync(path.join(folder, "snippet.mjs"), code);
    fs.writeFileSync(path.join(folder, "runner.mjs"), runner);
    const { stdout } = await run(process.execPath, ["runner.mjs"], { cwd: folder, env: environment() });
    return stdout.trim();
  }

  /** Whether the service client's introspection finds the access token active, with its scope. */
  async function introspect(client: ConfiguredClient, token: string) {
    const response = await fetch(`${server.issuer}/auth/oidc/introspect`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`${client.id}:${serviceSecret}`)}` },
      body: new URLSearchParams({ token }),
    });
    return (await response.json()) as { active: boolean; scope?: string };
  }

  it("gives code that parses in its language for every client, the Authlib and browser ones included", async () => {
    const checks = {
      javascript: (file: string) => run(process.execPath, ["--check", file]),
      python: (file: string) =>
        run("python3", ["-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", file]),
      shell: (file: string) => run("bash", ["-n", file]),
    };
    const extensions = { javascript: "mjs", python: "py", shell: "sh" };
    const snippets = clients.flatMap((client) => snippetsFor({ issuer: server.issuer, client, caFile }));
    expect(snippets.map((snippet) => snippet.library).sort()).toEqual(
      ["authlib", "authlib", "curl", "oidc-client-ts", "openid-client", "openid-client"].sort(),
    );
    for (const [index, snippet] of snippets.entries()) {
      const file = path.join(folder, `check-${index}.${extensions[snippet.language]}`);
      fs.writeFileSync(file, snippet.code);
      await expect(
        checks[snippet.language](file),
        `${snippet.library}: ${snippet.code}`,
      ).resolves.toBeDefined();
    }
  });

  it("gets a service's access token with curl", async () => {
    const { client, code } = snippetOf("service", "curl");
    expect(code).toContain(`--cacert ${caFile}`);
    expect(code).not.toContain(serviceSecret);
    const { stdout } = await run("bash", ["-c", code], { env: environment() });
    const answer = JSON.parse(stdout) as { access_token: string; scope: string };
    expect(answer.scope).toBe("orders:read");
    expect(await introspect(client, answer.access_token)).toMatchObject({
      active: true,
      scope: "orders:read",
    });
  });

  it("gets a service's access token with openid-client", async () => {
    const { client, code } = snippetOf("service", "openid-client");
    const token = await runWithNode(
      code,
      `import { accessToken } from "./snippet.mjs";\nconsole.log(await accessToken());\n`,
    );
    expect(await introspect(client, token)).toMatchObject({ active: true, scope: "orders:read" });
  });

  it("starts a person's sign-in with openid-client, which the authorization endpoint takes", async () => {
    const { client, code } = snippetOf("public", "openid-client");
    const printed = await runWithNode(
      code,
      `import { signInUrl } from "./snippet.mjs";\nconst session = {};\nconst url = await signInUrl(session);\nconsole.log(JSON.stringify({ url: url.href, session }));\n`,
    );
    const { url: signIn, session } = JSON.parse(printed) as { url: string; session: Record<string, string> };
    const parameters = new URL(signIn).searchParams;
    expect(parameters.get("client_id")).toBe(client.id);
    expect(parameters.get("redirect_uri")).toBe(client.redirectUris[0]);
    expect(parameters.get("scope")).toBe("openid profile orders:read");
    expect(parameters.get("state")).toBe(session["state"]);
    const response = await fetch(signIn, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location") ?? "", server.issuer).pathname).toMatch(
      /^\/auth\/[\w-]{43}$/,
    );
  });
});
