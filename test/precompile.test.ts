import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { vrataCommand } from "./support/command.ts";

// `vrata precompile` fills Node's compile cache with every server module, so that a process started
// on it (the first start of a container image, say) never loads Node's TypeScript stripper.

const checkout = fileURLToPath(new URL("../", import.meta.url));
const folders = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-precompile-"));

afterAll(() => fs.rmSync(folders, { recursive: true, force: true }));

/** Node's own compile cache settings: a caller's would override the folders the test gives. */
const cacheSettings = new Set(["NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE"]);
const environment = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !cacheSettings.has(name)),
);

/**
 * Whether a process on this compile cache, with the flags Vrata runs under, loads the TypeScript
 * stripper as it loads the server and a module that is loaded only when first used (SAML).
 */
function loadsTypeStripper(cache: string): boolean {
  const script = `
    import module from "node:module";
    if (module.enableCompileCache(${JSON.stringify(cache)}).status !== module.constants.compileCacheStatus.ENABLED)
      throw new Error("the compile cache is not on");
    await import("./src/server/start.ts");
    await import("./src/server/providers/saml.ts");
    process.stdout.write(String(process.moduleLoadList.some((name) => name.includes("amaro"))));`;
  const flags = vrataCommand.filter((argument) => argument.startsWith("--"));
  const output = execFileSync(process.execPath, [...flags, "--input-type=module", "-e", script], {
    cwd: checkout,
    env: environment,
    encoding: "utf8",
  });
  return output === "true";
}

describe("vrata precompile", () => {
  it("leaves nothing for a start to strip of its types, where a start on an empty cache strips them", () => {
    const empty = path.join(folders, "empty");
    expect(loadsTypeStripper(empty)).toBe(true);

    const cache = path.join(folders, "precompiled");
    const output = execFileSync(process.execPath, [...vrataCommand, "precompile"], {
      cwd: checkout,
      env: { ...environment, NODE_COMPILE_CACHE: cache },
      encoding: "utf8",
    });
    const [, count, folder] = /^vrata: (\d+) modules compiled into (.+)\n$/.exec(output) ?? [];
    expect(Number(count)).toBeGreaterThan(100);
    expect(path.dirname(folder ?? "")).toBe(cache);
    expect(loadsTypeStripper(cache)).toBe(false);
  }, 120_000);

  it("takes no options", () => {
    const refused = spawnSync(process.execPath, [...vrataCommand, "precompile", "--data", folders], {
      cwd: checkout,
      env: environment,
      encoding: "utf8",
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe("vrata: usage: vrata precompile\n");
  });
});
