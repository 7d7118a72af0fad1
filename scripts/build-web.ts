import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { build } from "vite";

// Builds the web app into dist/web. `npm start` calls it without --force and it skips the build when
// nothing the web app is made of has changed since the last one.

const root = fileURLToPath(new URL("../", import.meta.url));
const stamp = path.join(root, "dist/web/index.html");
const inputs = ["src/web", "src/common", "vite.config.ts", "package-lock.json"];

function newestChange(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

// Each page is built on its own, so that it holds only what it uses: built together, a library module
// both pages use (the router's) would bring what the console needs of it into the light page too. The
// console's page comes last, as the stamp.
const pages = ["card.html", "index.html"];

// The light page resolves React Router and TanStack Query to its own few lines of each (src/web/light),
// which serve what its views use of them: the console's views it shares import them as they are.
const light = (module: string) => path.join(root, "src/web/light", module);
const aliases: Record<string, { find: RegExp; replacement: string }[]> = {
  "card.html": [
    { find: /^react-router$/, replacement: light("router.tsx") },
    { find: /^@tanstack\/react-query$/, replacement: light("query.ts") },
  ],
};

/**
 * Writes a Brotli and a gzip copy beside each built asset, made once here at the strongest setting:
 * the server sends the one the browser accepts (http/pages.ts) and compresses nothing per request. A
 * file the copies would not make smaller by a tenth gets none.
 */
function compressAssets(folder: string): void {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = fs.readFileSync(file);
    const brotli = zlib.brotliCompressSync(content, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
    });
    if (brotli.length > content.length * 0.9) continue;
    fs.writeFileSync(`${file}.br`, brotli);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: zlib.constants.Z_BEST_COMPRESSION }));
  }
}

const builtAt = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const force = process.argv.includes("--force");
if (force || inputs.some((input) => newestChange(path.join(root, input)) > builtAt)) {
  for (const [index, page] of pages.entries()) {
    await build({
      configFile: path.join(root, "vite.config.ts"),
      logLevel: "warn",
      resolve: { alias: aliases[page] ?? [] },
      build: { emptyOutDir: index === 0, rollupOptions: { input: path.join(root, "src/web", page) } },
    });
  }
  compressAssets(path.join(root, "dist/web/assets"));
}
