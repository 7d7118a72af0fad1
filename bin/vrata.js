#!/usr/bin/env -S node --max-semi-space-size=2
// A young generation of 2 MB (V8 grows it to 16 MB) keeps Vrata about 25 MB smaller and its garbage
// collection pauses shorter, at no cost in throughput measured by `npm run bench`; `npm start` and
// the benchmark start Vrata through this file with the same flag.
// The `vrata` command. Vrata runs its TypeScript sources directly, which needs Node.js 24 or newer.
import module from "node:module";

const [major] = process.versions.node.split(".").map(Number);
if (major < 24) {
  process.stderr.write(
    `vrata: Node.js 24 or newer is needed (this is ${process.version}); run it with npx vrata\n`,
  );
  process.exit(2);
}
// Node keeps what it made of each module (type-stripped and compiled) in the system's temporary
// folder, keyed by the file's content: a restart skips stripping types and compiling, starts about
// 0.3 s sooner and never loads the type stripper, 20 MB it would otherwise hold. A folder that cannot
// be written only turns the cache off.
module.enableCompileCache();
await import("../src/server/main.ts");
