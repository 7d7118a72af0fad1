import { spawn } from "node:child_process";

// `npm run dev`: the server with Vite inside it (hot reload for the web app), restarted by Node
// whenever a server file changes.

const child = spawn(
  process.execPath,
  [
    "--watch-path=src/server",
    "--watch-path=src/common",
    "src/server/main.ts",
    "--dev",
    ...process.argv.slice(2),
  ],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
