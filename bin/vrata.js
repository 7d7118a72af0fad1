#!/usr/bin/env -S node --expose-gc
// --expose-gc lets Vrata give the memory its start leaves behind back to the system before it listens
// (src/server/start.ts); `npm start` and the benchmark start Vrata through this file with the same flag.
// The `vrata` command. Vrata runs its TypeScript sources directly, which needs Node.js 24 or newer.
import module from "node:module";
import { fileURLToPath } from "node:url";

const [major] = process.versions.node.split(".").map(Number);
if (major < 24) {
  process.stderr.write(
    `vrata: Node.js 24 or newer is needed (this is ${process.version}); run it with npx vrata\n`,
  );
  process.exit(2);
}
// Node keeps what it made of each module (type-stripped and compiled) in a cache folder, keyed by the
// file's path and content: a restart skips stripping types and compiling, starts about 0.3 s sooner
// and never loads the type stripper, 20 MB it would otherwise hold. The folder is in Vrata's own
// node_modules rather than the shared temporary folder, so that only those who can already change
// Vrata's code can write what it runs; NODE_COMPILE_CACHE chooses another. A folder that cannot be
// written only turns the cache off. A worker thread (reading SAML metadata) takes the cache from the
// environment only, so the folder is put there for the threads to come.
const compileCache =
  process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL("../node_modules/.cache/vrata", import.meta.url));
if (module.enableCompileCache(compileCache).status === module.constants.compileCacheStatus.ENABLED) {
  process.env.NODE_COMPILE_CACHE = compileCache;
}
await import("../src/server/main.ts");
