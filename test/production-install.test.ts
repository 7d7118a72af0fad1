import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copyArguments,
  environmentArguments,
  execForm,
  readContainerfile,
  type Stage,
} from "./support/containerfile.ts";
import { freePort } from "./support/ports.ts";
import { RunningCommand } from "./support/running-command.ts";
import { trustCa } from "./support/server.ts";

// The production install, made as the container image makes it: the Containerfile's stages replayed on
// a clean copy of the tracked sources. The build stage builds the web app with the development
// dependencies this checkout has installed (the `npm ci` CI ran); the dependencies stage runs its
// `npm ci --omit=dev` from npm's cache; the runtime stage's COPY, ENV, CMD and HEALTHCHECK are taken
// as written, and so is its RUN of a command of Vrata's (exec form), before the first start. So a
// production start that needs a development dependency, or a file the image does not copy, fails here.
// Its user and folders (the runtime stage's other RUN) are temporary folders instead.

const checkout = fileURLToPath(new URL("../", import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-production-"));
const context = path.join(root, "context");
const stages = readContainerfile(fs.readFileSync(path.join(checkout, "Containerfile"), "utf8"));
const runtime = stages.at(-1) as Stage;
const stageFolders = new Map(stages.map((stage) => [stage.name, path.join(root, stage.name)]));
const workdirs = new Map<string, string>();

/** Where a path of a stage's file system is in its stand-in folder. */
function inStage(stage: string, file: string): string {
  const folder = stageFolders.get(stage) ?? "";
  const workdir = workdirs.get(stage) ?? "/";
  if (!path.isAbsolute(file)) return path.join(folder, file);
  if (file !== workdir && !file.startsWith(workdir + "/")) throw new Error(`${file} is outside ${workdir}`);
  return path.join(folder, path.relative(workdir, file));
}

function replayCopy(stage: string, args: string): void {
  const { from, sources, destination } = copyArguments(args);
  const target = inStage(stage, destination);
  for (const source of sources) {
    const origin = from === undefined ? path.join(context, source) : inStage(from, source);
    const intoFolder = destination.endsWith("/") || sources.length > 1;
    const isFile = fs.statSync(origin).isFile();
    fs.cpSync(origin, intoFolder && isFile ? path.join(target, path.basename(origin)) : target, {
      recursive: true,
    });
  }
}

/** A build stage's RUN: the full `npm ci` is the checkout's own install; everything else runs. */
function replayRun(stage: string, command: string): void {
  const cwd = stageFolders.get(stage) ?? root;
  if (/^npm ci\b/.test(command) && !command.includes("--omit=dev")) {
    fs.symlinkSync(path.join(checkout, "node_modules"), path.join(cwd, "node_modules"));
    return;
  }
  const offline = /^npm ci\b/.test(command) ? " --prefer-offline" : "";
  // Its output is kept for the error a failing step throws.
  execFileSync("sh", ["-c", command + offline], { cwd, encoding: "utf8" });
}

const imageEnvironment: Record<string, string> = {};
/** The runtime stage's RUN of Vrata's own commands, run as its user before the image is started. */
const imageSteps: string[][] = [];
let command: string[] = [];
let healthCheck: string[] = [];
let app = "";

function replayStages(): void {
  for (const stage of stages) {
    fs.mkdirSync(stageFolders.get(stage.name) ?? root);
    for (const { keyword, args } of stage.instructions) {
      if (keyword === "WORKDIR") workdirs.set(stage.name, args);
      else if (keyword === "COPY") replayCopy(stage.name, args);
      else if (keyword === "RUN" && stage !== runtime) replayRun(stage.name, args);
      else if (keyword === "RUN" && args.startsWith("[")) imageSteps.push(execForm(args));
      else if (keyword === "ENV" && stage === runtime)
        Object.assign(imageEnvironment, environmentArguments(args));
      else if (keyword === "CMD") command = execForm(args);
      else if (keyword === "HEALTHCHECK") healthCheck = execForm(args);
    }
  }
  app = stageFolders.get(runtime.name) ?? "";
}

/** The image's environment on this machine: its WORKDIR is the runtime folder, plus `settings`. */
function environment(settings: Record<string, string>): Record<string, string> {
  const workdir = workdirs.get(runtime.name) ?? "/";
  const image = Object.entries(imageEnvironment).map(
    ([name, value]) => [name, value.replaceAll(workdir, app)] as const,
  );
  return { ...Object.fromEntries(image), ...settings };
}

/** Runs the image's command (or health check) in the runtime folder. */
function run(argv: string[], settings: Record<string, string>) {
  const [program = "", ...args] = argv;
  const env = environment(settings);
  // The image finds `node` on its PATH, in its own node_modules/.bin: so does this.
  const found = (env.PATH ?? "").split(":").find((folder) => fs.existsSync(path.join(folder, program)));
  return spawn(found ? path.join(found, program) : program, args, { cwd: app, env });
}

/** What a started command writes to its standard error, as far as it has come. */
function errorsOf(child: ReturnType<typeof run>): () => string {
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")));
  return () => errors;
}

function exitCode(argv: string[], settings: Record<string, string>): Promise<number | null> {
  const child = run(argv, settings);
  child.stdout.resume();
  return new Promise((resolve) => child.on("exit", resolve));
}

let vrata: RunningCommand | undefined;
let settings: Record<string, string> = {};
let origin = "";

beforeAll(() => {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: checkout, encoding: "utf8" });
  for (const file of tracked.split("\0").filter((name) => name !== "")) {
    const source = path.join(checkout, file);
    if (fs.existsSync(source)) fs.cpSync(source, path.join(context, file));
  }
  replayStages();
  fs.mkdirSync(path.join(root, "data"));
  fs.mkdirSync(path.join(root, "compile-cache"));
}, 300_000);

afterAll(async () => {
  if (vrata && vrata.child.exitCode === null) {
    vrata.child.kill("SIGTERM");
    await vrata.exited;
  }
  fs.rmSync(root, { recursive: true, force: true });
});

describe("the production install the Containerfile makes", () => {
  it("holds no package that only development needs", () => {
    const lock = JSON.parse(fs.readFileSync(path.join(checkout, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const developmentOnly = Object.entries(lock.packages)
      .filter(([name, entry]) => name.startsWith("node_modules/") && entry.dev === true)
      .map(([name]) => name);
    expect(developmentOnly).toEqual(expect.arrayContaining(["node_modules/vite", "node_modules/typescript"]));
    expect(developmentOnly.filter((name) => fs.existsSync(path.join(app, name)))).toEqual([]);
    expect(fs.existsSync(path.join(app, "dist/web/index.html"))).toBe(true);
  });

  it("serves the web app built once, ready by the health checks", async () => {
    const port = await freePort();
    origin = `https://localhost:${port}`;
    settings = {
      VRATA_PORT: String(port),
      VRATA_DATA: path.join(root, "data"),
      VRATA_WORKERS: "2",
      NODE_COMPILE_CACHE: path.join(root, "compile-cache"),
    };
    // Made with the flags the image's command runs under: V8 takes only cached code made under them.
    expect(imageSteps).toContainEqual([...command, "precompile"]);
    for (const step of imageSteps) {
      const child = run(step, settings);
      child.stdout.resume();
      const errors = errorsOf(child);
      const code = await new Promise((resolve) => child.on("exit", resolve));
      expect({ step: step.join(" "), code, errors: errors() }).toEqual({
        step: step.join(" "),
        code: 0,
        errors: "",
      });
    }
    const child = run(command, settings);
    const errors = errorsOf(child);
    vrata = new RunningCommand(child);
    const ended = vrata.exited.then((code) => {
      throw new Error(`the image's command ended with ${String(code)}: ${errors()}`);
    });
    await Promise.race([vrata.next((line) => line.msg.startsWith("Vrata is serving")), ended]);
    trustCa(path.join(root, "data/tls/ca.pem"));

    const ready = await fetch(`${origin}/health/ready`);
    expect(ready.status).toBe(200);
    const card = await fetch(`${origin}/`, { headers: { accept: "text/html" } });
    expect(card.status).toBe(200);
    const page = await card.text();
    const script = /<script[^>]+src="([^"]+)"/.exec(page)?.[1];
    expect(script).toMatch(/^\/assets\//);
    expect((await fetch(`${origin}${script ?? ""}`)).status).toBe(200);
    const discovery = await fetch(`${origin}/.well-known/openid-configuration`);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(origin);

    expect(await exitCode(healthCheck, settings)).toBe(0);
  });

  it("is found unhealthy once it stops, and will not start without the built web app", async () => {
    vrata?.child.kill("SIGTERM");
    await vrata?.exited;
    expect(await exitCode(healthCheck, settings)).toBe(1);

    fs.renameSync(path.join(app, "dist"), path.join(root, "dist-aside"));
    const unbuilt = run(command, { ...settings, VRATA_WORKERS: "1" });
    unbuilt.stdout.resume();
    const errors = errorsOf(unbuilt);
    const code = await new Promise((resolve) => unbuilt.on("exit", resolve));
    expect(code).toBe(2);
    expect(errors()).toMatch(
      /^vrata: the web app is not built \(.*index\.html is missing\).*npm run build.*\n$/,
    );
  });
});
