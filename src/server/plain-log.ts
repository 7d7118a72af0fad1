import os from "node:os";
import type { Config } from "./config.ts";
import { writeLogRecord } from "./operations/log-output.ts";

const logLevels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** What is said before the web server and its logger exist (the primary process, a start that waits). */
export interface PlainLog {
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

/** The fields pino puts in every line, so that one reader takes both. */
export const recordBase = (level: number) => ({
  level,
  time: Date.now(),
  pid: process.pid,
  hostname: os.hostname(),
});

/** Log lines shaped as the server's (pino's JSON, or the same made readable at a terminal). */
export function plainLog({ logLevel, logFormat }: Pick<Config, "logLevel" | "logFormat">): PlainLog {
  const write = (at: keyof typeof logLevels, msg: string) => {
    if (logLevels[at] < logLevels[logLevel]) return;
    writeLogRecord(logFormat, { ...recordBase(logLevels[at]), msg });
  };
  return {
    info: (msg) => write("info", msg),
    warn: (msg) => write("warn", msg),
    error: (msg) => write("error", msg),
  };
}
