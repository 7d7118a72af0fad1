import { describe, expect, it } from "vitest";
import { prettyLine } from "./log-output.ts";

describe("a log line read at a terminal", () => {
  const time = Date.UTC(2026, 0, 2, 13, 4, 5, 678);

  it("is the time, the level, the message and each field as key=value, on one line", () => {
    const line = JSON.stringify({
      level: 30,
      time,
      pid: 41,
      hostname: "host",
      reqId: "r1",
      req: { method: "GET", path: "/auth/x", address: "203.0.113.9" },
      event: "signIn",
      verifyOnly: ["k1", "k2"],
      note: "two words",
      responseTime: 9.477732000000287,
      msg: "signed in",
    });
    expect(prettyLine(line)).toBe(
      '13:04:05.678 INFO  signed in pid=41 reqId=r1 req.method=GET req.path=/auth/x req.address=203.0.113.9 event=signIn verifyOnly=k1,k2 note="two words" responseTime=9.478',
    );
  });

  it("shows an error's type and message on the line and its stack below it", () => {
    const error = new TypeError("no such thing");
    const line = prettyLine(
      JSON.stringify({
        level: 60,
        time,
        msg: "crashed",
        err: { type: "TypeError", message: error.message, stack: error.stack },
      }),
    );
    const [first, ...frames] = line.split("\n");
    expect(first).toBe('13:04:05.678 FATAL crashed err.type=TypeError err.message="no such thing"');
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/^ {4}at /);
  });

  it("leaves a line that is not JSON as it is", () => {
    expect(prettyLine("plain words")).toBe("plain words");
  });
});
