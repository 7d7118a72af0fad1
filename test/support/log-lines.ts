import type { LogStream } from "../../src/server/operations/log-output.ts";

/** One JSON line of the server's log, as an operator's collector reads it. */
export type LogRecord = Record<string, unknown> & { level: number; msg: string; event?: string };

/** Keeps the JSON lines a test server logs: all of them as written, and parsed. */
export class LogLines implements LogStream {
  readonly text: string[] = [];
  readonly records: LogRecord[] = [];

  write(line: string): void {
    this.text.push(line);
    this.records.push(JSON.parse(line) as LogRecord);
  }

  /** Where the next line will be: `since(mark)` gives what came after. */
  mark(): number {
    return this.records.length;
  }

  since(mark: number): LogRecord[] {
    return this.records.slice(mark);
  }

  /** The lines of one operator event, after `mark`. */
  events(event: string, mark = 0): LogRecord[] {
    return this.since(mark).filter((record) => record.event === event);
  }
}
