import type { ChildProcess } from "node:child_process";

// A `vrata` command started by a test, read as an operator reads it: its JSON log lines as they come.

export interface LogLine {
  pid: number;
  msg: string;
  req?: { path: string };
  /** The answer, on a request's "request completed" line. */
  res?: { statusCode: number };
}

/** The running command, what it has logged so far, and a wait for a line to come. */
export class RunningCommand {
  readonly lines: LogLine[] = [];
  readonly exited: Promise<number | null>;
  #waiting: { match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];

  readonly child: ChildProcess;

  constructor(child: ChildProcess) {
    this.child = child;
    let rest = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      const text = rest + chunk.toString("utf8");
      const complete = text.split("\n");
      rest = complete.pop() ?? "";
      for (const raw of complete) this.#add(JSON.parse(raw) as LogLine);
    });
    this.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  #add(line: LogLine) {
    this.lines.push(line);
    this.#waiting = this.#waiting.filter(({ match, resolve }) =>
      match(line) ? (resolve(line), false) : true,
    );
  }

  /** The first line, logged already or still to come, that `match` accepts. */
  next(match: (line: LogLine) => boolean, after = 0): Promise<LogLine> {
    const found = this.lines.slice(after).find(match);
    return found ? Promise.resolve(found) : new Promise((resolve) => this.#waiting.push({ match, resolve }));
  }

  /** The workers that have said they are ready and have not ended since, by process ID. */
  get workers(): number[] {
    const ended = this.lines.map((line) => /^worker (\d+) ended/.exec(line.msg)?.[1]).map(Number);
    return this.lines
      .filter((line) => line.msg.startsWith("worker ready") && !ended.includes(line.pid))
      .map((line) => line.pid);
  }

  /** Waits until `count` workers are ready. */
  async workersReady(count: number): Promise<void> {
    while (this.workers.length < count) await this.next(() => true, this.lines.length);
  }
}
