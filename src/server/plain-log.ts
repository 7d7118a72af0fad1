import os from "node:os";
import type { Config } from "./config.ts";

const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** What is said before the web server and its logger exist (the primary process, a start that waits). */
export interface PlainLog {
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

/** Log lines shaped as the server's (pino's JSON), so that one reader takes both. */
export function plainLog(level: Config["logLevel"]): PlainLog {
  const write = (at: keyof typeof levels, msg: string) => {
    if (levels[at] < levels[level]) return;
    process.stdout.write(
      `${JSON.stringify({ level: levels[at], time: Date.now(), pid: process.pid, hostname: os.hostname(), msg })}\n`,
    );
  };
  return {
    info: (msg) => write("info", msg),
    warn: (msg) => write("warn", msg),
    error: (msg) => write("error", msg),
  };
}
