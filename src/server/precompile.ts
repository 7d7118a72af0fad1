import fs from "node:fs";
import module from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// `vrata precompile`: loads every module of the server once, so that Node's compile cache holds each
// one stripped of its types and compiled. A process that finds a module there never loads Node's
// TypeScript stripper, which it would otherwise hold for as long as it runs (about 20 MB), nor spends
// the start stripping and compiling. A start fills the cache only with what it loads, and a new
// container starts with an empty cache: an image made with this command starts every time as a
// restart does, and a feature loaded when first used (SAML, passkeys, ...) finds its modules there too.

const serverFolder = fileURLToPath(new URL(".", import.meta.url));

/** Not loaded here: the command itself, and the development server's (it needs Vite). */
const skipped = new Set(["main.ts", path.join("http", "dev.ts")]);

/** The server's own modules, tests aside. */
function serverModules(): string[] {
  return fs
    .readdirSync(serverFolder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !skipped.has(file))
    .sort()
    .map((file) => path.join(serverFolder, file));
}

/** Loads the server's modules and writes what Node made of them to its compile cache; how many. */
export async function precompile(): Promise<number> {
  if (module.getCompileCacheDir() === undefined) {
    throw new Error(
      "Node's compile cache is off: its folder cannot be written, or NODE_DISABLE_COMPILE_CACHE is set",
    );
  }
  const modules = serverModules();
  for (const file of modules) {
    try {
      await import(pathToFileURL(file).href);
    } catch (error) {
      throw new Error(`${path.relative(serverFolder, file)} cannot be loaded: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  module.flushCompileCache();
  return modules.length;
}
