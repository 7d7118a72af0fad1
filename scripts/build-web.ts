import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
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
}
