import { AsyncLocalStorage } from "node:async_hooks";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { identitySchema } from "../src/common/api/identity.ts";
import { routes } from "../src/common/routes.ts";
import { vrataCommand } from "./support/command.ts";
import { consoleApp, consoleSignUp, postJson } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { consoleAuthorizeUrl, startLoad } from "./support/load.ts";
import { postgresUrl, runSql } from "./support/postgres.ts";
import { freePort } from "./support/ports.ts";
import { RunningCommand } from "./support/running-command.ts";

// A rolling upgrade as the README describes it: an instance of the previous release serves a
// PostgreSQL database, an instance of this version starts on the same database and migrates it, and
// both then serve side by side while people start sign-ins, sign up and sign in, some of them
// beginning on one version and continuing on the other. Nobody is answered with a 5xx.

/** The previous release: its store has the migrations up to 0014. */
const previousRelease = "4ef7932";
const newMigrations = [
  "0015-saml-assertions",
  "0016-identity-address-shares",
  "0017-application-choices",
  "0018-address-invitations",
  "0019-second-factors",
  "0020-email-verifications",
  "0021-session-devices",
  "0022-account-deletion",
];
const previousReleaseAvailable =
  spawnSync("git", ["cat-file", "-e", `${previousRelease}^{commit}`]).status === 0;
if (postgresUrl && !previousReleaseAvailable)
  console.log(`rolling upgrade skipped: the previous release ${previousRelease} is not in the git history`);

/** The one issuer both versions serve, as a deployment's instances do behind their load balancer. */
const issuer = "https://id.example.test";

interface Instance {
  command: RunningCommand;
  /** Where the instance listens, reached directly. */
  origin: string;
}

/**
 * The instance that requests to the issuer go to: the load balancer's choice, made by the test. Each
 * request is sent to that instance directly, as the proxy in front of it would pass it on.
 */
const balancer = new AsyncLocalStorage<Instance>();
const at = <T>(instance: Instance, run: () => Promise<T>) => balancer.run(instance, run);

function balanced(send: typeof fetch): typeof fetch {
  return (input, init) => {
    if (input instanceof Request) throw new Error("a request to send is given by its URL");
    const url = new URL(input);
    if (url.origin !== issuer) return send(input, init);
    const instance = balancer.getStore();
    if (!instance) throw new Error(`no instance chosen for ${url.href}`);
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-host", url.host);
    headers.set("x-forwarded-proto", "https");
    return send(instance.origin + url.pathname + url.search, { ...init, headers });
  };
}

/** The previous release's sources, run with this checkout's packages and web app. */
function checkOutPreviousRelease(dir: string): string {
  const tree = path.join(dir, "previous-release");
  fs.mkdirSync(tree);
  const archive = path.join(dir, "previous.tar");
  execFileSync("git", ["archive", "--output", archive, previousRelease]);
  execFileSync("tar", ["-xf", archive, "-C", tree]);
  fs.symlinkSync(fs.realpathSync("node_modules"), path.join(tree, "node_modules"));
  // The web app is the same bundle for both: the load below speaks to the API only.
  fs.cpSync("dist", path.join(tree, "dist"), { recursive: true });
  return tree;
}

/** A 5xx answer logged by an instance, or none. */
const serverErrors = ({ command }: Instance) =>
  command.lines.filter((line) => (line.res?.statusCode ?? 0) >= 500);

describe.runIf(postgresUrl && previousReleaseAvailable)("a rolling upgrade from the previous release", () => {
  const database = `vrata_upgrade_${randomBytes(6).toString("hex")}`;
  const serverUrl = new URL(postgresUrl ?? "postgres://localhost");
  const databaseUrl = Object.assign(new URL(serverUrl.href), { pathname: `/${database}` }).href;
  let dir: string;
  let secretKeyFile: string;
  const instances: Instance[] = [];

  /** Node's arguments for the instance `name`: on the database, with a data folder of its own. */
  const instanceArgs = (name: string, port: number) => [
    ...vrataCommand,
    ...["--workers", "1", "--port", String(port), "--data", path.join(dir, `data-${name}`)],
    ...["--database", databaseUrl, "--behind-proxy", "--issuer", issuer, "--secret-key-file", secretKeyFile],
  ];

  /** The instance `name` of the version whose sources are in `tree`. */
  async function startInstance(tree: string, name: string): Promise<Instance> {
    const port = await freePort();
    const child = spawn(process.execPath, instanceArgs(name, port), {
      cwd: tree,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const command = new RunningCommand(child);
    const instance = { command, origin: `http://localhost:${port}` };
    instances.push(instance);
    await command.next((line) => line.msg.startsWith("Vrata is serving"));
    return instance;
  }

  beforeAll(async () => {
    await runSql(serverUrl.href, `CREATE DATABASE ${database}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-upgrade-"));
    secretKeyFile = path.join(dir, "secret.key");
    fs.writeFileSync(secretKeyFile, randomBytes(32).toString("base64"), { mode: 0o600 });
    vi.stubGlobal("fetch", balanced(fetch));
  });

  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const { command } of instances) {
      if (command.child.exitCode === null) command.child.kill("SIGKILL");
      await command.exited;
    }
    await runSql(serverUrl.href, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A person signs up or in to the console with a password: the sign-in starts at `start`, and
   * everything after (the person's steps, the return to the app and its code exchange) goes to `goOn`.
   */
  async function signIn(start: Instance, goOn: Instance, username: string) {
    const driver = await at(start, async () => FlowDriver.start(issuer, await consoleApp(issuer)));
    await at(goOn, async () => {
      expect((await driver.step("passwordStart", { emailOrUsername: username })).status).toBe(200);
      const password = { password: `${username}'s passphrase` };
      expect((await driver.step("passwordComplete", password)).status).toBe(200);
      const [identity] = await driver.identities();
      expect((await driver.step("chooseIdentity", { identity: { id: identity?.id } })).status).toBe(200);
      expect((await driver.step("redirect")).status).toBe(200);
      const tokens = await driver.exchange(await driver.returnToApp());
      expect(tokens.id_token).toBeTruthy();
    });
  }

  /** The load of people starting sign-ins at one instance. */
  const loadOn = (instance: Instance) =>
    at(instance, async () => startLoad(await consoleAuthorizeUrl(issuer), 2));

  it("serves the previous release and this one side by side through the migration, with no 5xx", async () => {
    const previousTree = checkOutPreviousRelease(dir);
    const previous = await startInstance(previousTree, "previous");
    const previousLoad = await loadOn(previous);
    await previousLoad.succeeding(20);
    await signIn(previous, previous, "before-the-upgrade");

    // The new version migrates the store while the previous release serves under load.
    const beforeStart = previousLoad.tally.total;
    const current = await startInstance(process.cwd(), "current");
    const whileStarting = previousLoad.tally.total - beforeStart;
    for (const name of newMigrations)
      expect(current.command.lines.map((line) => line.msg)).toContainEqual(
        expect.stringMatching(new RegExp(`^database migration ${name} done in \\d+ ms$`)),
      );
    const currentLoad = await loadOn(current);

    // Both are ready. The previous release predates readiness's "outdated" (this version is the first
    // to say it), so its load balancer learns nothing: both versions keep taking new requests.
    const readiness = async ({ origin }: Instance) => {
      const response = await fetch(origin + routes.HealthReady.path);
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await readiness(previous)).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await readiness(current)).toMatchObject({ status: 200, body: { status: "ok" } });

    // People sign up and in on either version, and across them, while both serve.
    const paths: [Instance, Instance][] = [
      [previous, current],
      [current, previous],
      [previous, previous],
      [current, current],
    ];
    for (const [index, [start, goOn]] of paths.entries()) {
      await signIn(start, goOn, `signed-up-${index}`);
      await signIn(start, goOn, "before-the-upgrade");
    }

    // What migration 0016 holds: an identity shared with an e-mail address nobody has signed up with.
    // The share is kept beside the identity's document, where the previous release neither reads nor
    // writes: that release shows the identity without it, and its own edits of the identity keep it.
    const owner = await at(current, () => consoleSignUp(issuer, "sharing-owner"));
    const read = async (instance: Instance) => {
      const answer = await at(instance, () => owner.api(`/api/i/${owner.identityId}`));
      expect(answer.status).toBe(200);
      return identitySchema.parse(await answer.json());
    };
    const person = "not-yet@upgrade.example";
    const shared = await at(current, async () =>
      postJson(owner.api, `/api/i/update/${owner.identityId}`, {
        version: (await read(current)).version,
        users: [{ person }],
      }),
    );
    expect(shared.status).toBe(200);
    const [share] = (await read(current)).users ?? [];
    expect(share).toMatchObject({ person });
    expect((await read(previous)).users).toEqual([]);

    const fullName = "Renamed on the previous release";
    const renamed = await at(previous, async () =>
      postJson(owner.api, `/api/i/update/${owner.identityId}`, {
        version: (await read(previous)).version,
        fullName,
      }),
    );
    expect(renamed.status).toBe(200);
    const afterRename = await read(current);
    expect(afterRename.fullName).toBe(fullName);
    expect(afterRename.users).toEqual([share]);

    await previousLoad.succeeding(20);
    await currentLoad.succeeding(20);
    await previousLoad.stop();
    await currentLoad.stop();
    const answered = instances.map(({ command }) => command.lines.filter((line) => line.res).length);
    console.log(
      `rolling upgrade: load on the previous release ${previousLoad.tally.toString()}; ` +
        `on this version ${currentLoad.tally.toString()}; ` +
        `${whileStarting} answered by the previous release while this version started and migrated; ` +
        `requests answered in all: ${answered.join(" by the previous release, ")} by this version`,
    );
    for (const { tally } of [previousLoad, currentLoad]) {
      expect(tally.noAnswer).toBe(0);
      expect([...tally.statuses.keys()]).toEqual([303]);
    }
    expect(instances.flatMap(serverErrors)).toEqual([]);

    // Stopped, the previous release does not start again on the migrated store: it predates starting
    // on a store a newer version migrated. It is replaced by this version instead.
    previous.command.child.kill("SIGTERM");
    expect(await previous.command.exited).toBe(0);
    const restart = spawnSync(process.execPath, instanceArgs("previous", await freePort()), {
      cwd: previousTree,
      encoding: "utf8",
    });
    expect(restart.status).not.toBe(0);
    expect(restart.stderr).toContain("database migration");
  }, 300_000);
});
