#!/usr/bin/env node
// The `vrata` command. Vrata runs its TypeScript sources directly, which needs Node.js 24 or newer.
const [major] = process.versions.node.split(".").map(Number);
if (major < 24) {
  process.stderr.write(
    `vrata: Node.js 24 or newer is needed (this is ${process.version}); run it with npx vrata\n`,
  );
  process.exit(2);
}
await import("../src/server/main.ts");
