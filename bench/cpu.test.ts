import { describe, expect, it } from "vitest";
import { cpuMsPerRequest, ratio, statCpuMs } from "./cpu.ts";
import { detectPinning, pinnedCommand } from "./pinning.ts";
import { combined } from "./stats.ts";

describe("the bench's CPU counters and ratios", () => {
  it("reads utime and stime off a /proc/<pid>/stat line, whatever the command name holds", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const fields = "S 1 1 1 0 -1 4194560 100 0 0 0 250 37 0 0 20 0 7 0";
    expect(statCpuMs(`4242 (node) ${fields}`)).toBe(2870);
    expect(statCpuMs(`4242 (a (strange) name) ${fields}`)).toBe(2870);
    expect(() => statCpuMs("not a stat line")).toThrow();
  });

  it("gives no figure where nothing was answered or counted", () => {
    expect(cpuMsPerRequest(500, 1000)).toBe(0.5);
    expect(cpuMsPerRequest(500, 0)).toBeNaN();
    expect(cpuMsPerRequest(undefined, 10)).toBeNaN();
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
  });

  it("adds rounds' requests and CPU time, so CPU per request weighs every request alike", () => {
    const round = { p50Ms: 1, p99Ms: 2, errors: 0 };
    const both = combined([
      { ...round, requestsPerSecond: 100, requests: 100, serverCpuMs: 50 },
      { ...round, requestsPerSecond: 300, requests: 300, serverCpuMs: 90 },
    ]);
    expect(both.requestsPerSecond).toBe(200);
    expect(cpuMsPerRequest(both.serverCpuMs, both.requests)).toBe(0.35);
    // A round without a counter leaves the whole without one, rather than a wrong figure.
    expect(
      combined([
        { ...round, requestsPerSecond: 1, requests: 1 },
        { ...round, requestsPerSecond: 1 },
      ]).requests,
    ).toBe(undefined);
  });

  it("pins through taskset only where it exists and there is a core to spare", () => {
    expect(detectPinning(2, true)).toMatchObject({
      pinned: true,
      serverCpu: "1",
      clientCpu: "0",
      allCpus: "0-1",
    });
    expect(detectPinning(8, false)).toMatchObject({ pinned: false, reason: "taskset is not installed" });
    expect(detectPinning(1, true).pinned).toBe(false);
    const pinned = detectPinning(2, true);
    expect(pinnedCommand(pinned, "1", "node", ["x.ts"])).toEqual([
      "taskset",
      ["--cpu-list", "1", "node", "x.ts"],
    ]);
    expect(pinnedCommand(pinned, undefined, "node", ["x.ts"])).toEqual(["node", ["x.ts"]]);
    expect(pinnedCommand(detectPinning(2, false), "1", "node", ["x.ts"])).toEqual(["node", ["x.ts"]]);
  });
});
