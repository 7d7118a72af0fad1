// Where log lines go and how they read: JSON lines for whatever collects them (a pipe, a file, a log
// shipper), or one readable line each for a person watching a terminal. Every line is made as JSON
// first, so that both show the same fields.

/** `--log-format`: `auto` is readable lines at a terminal and JSON anywhere else. */
export type LogFormat = "auto" | "json" | "pretty";

export const logFormats = ["auto", "json", "pretty"] as const satisfies readonly LogFormat[];

/** Something a JSON log line can be written to (pino's destination, or a test's collector). */
export interface LogStream {
  write: (line: string) => void;
}

/** Whether this process writes readable lines rather than JSON. */
export function writesPretty(format: LogFormat): boolean {
  // A stream that is not a terminal has no isTTY at all (Node's types say otherwise).
  const terminal = (process.stdout as { isTTY?: boolean }).isTTY ?? false;
  return format === "pretty" || (format === "auto" && terminal);
}

const levelNames: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};

// Said by every line, or by the time in front of it: the reader at the terminal needs neither.
const omitted = new Set(["level", "time", "msg", "hostname"]);

/** A field's value as it reads after `key=`: bare when it is one word, quoted otherwise. */
function shown(value: unknown): string {
  // Durations are read to the thousandth of a millisecond at most.
  if (typeof value === "number") return String(Math.round(value * 1000) / 1000);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/** Nested fields as dotted keys (`req.path=/x`), arrays joined with commas. */
function fieldsOf(record: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(record).flatMap(([key, value]) => {
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return [`${prefix}${key}=${shown(value.map(String).join(","))}`];
    if (typeof value === "object") return fieldsOf(value as Record<string, unknown>, `${prefix}${key}.`);
    return [`${prefix}${key}=${shown(value)}`];
  });
}

/**
 * One JSON log line as a person reads it: `12:34:56.789 INFO  message key=value …`. An error's stack
 * follows, indented, on lines of its own: it is read at a terminal to find the fault.
 */
export function prettyLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { err, ...rest } = record;
  const time = typeof record.time === "number" ? new Date(record.time).toISOString().slice(11, 23) : "";
  const level = (levelNames[Number(record.level)] ?? String(record.level)).padEnd(5);
  const stack = (err as { stack?: unknown } | undefined)?.stack;
  const error = err && typeof err === "object" ? { ...err, stack: undefined } : err;
  const fields = fieldsOf(
    Object.fromEntries(Object.entries({ ...rest, err: error }).filter(([key]) => !omitted.has(key))),
  );
  const line = [time, level, typeof record.msg === "string" ? record.msg : "", ...fields]
    .filter(Boolean)
    .join(" ");
  if (typeof stack !== "string") return line;
  const frames = stack.split("\n").slice(1);
  return [line, ...frames.map((frame) => `    ${frame.trim()}`)].join("\n");
}

/** Where the server's logger writes: a readable line each at a terminal, pino's own JSON otherwise. */
export function logDestination(format: LogFormat): LogStream | undefined {
  if (!writesPretty(format)) return undefined;
  return { write: (line) => void process.stdout.write(`${prettyLine(line.trimEnd())}\n`) };
}

/**
 * Writes one log record to standard output, for what is said before the server's logger exists and
 * for the last words of a process; `written` runs once the line is out.
 */
export function writeLogRecord(
  format: LogFormat,
  record: Record<string, unknown>,
  written?: () => void,
): void {
  const json = JSON.stringify(record);
  process.stdout.write(`${writesPretty(format) ? prettyLine(json) : json}\n`, written);
}
