import fs from "node:fs";

// A server's own CPU time, read off Linux's counters of its processes (/proc/<pid>/stat): sampled at
// the start and the end of a measured window, the difference over the requests answered in it is
// the server's CPU time per request, whatever else the machine was doing meanwhile.

/** Linux counts CPU time in USER_HZ ticks, which it fixes at 100 per second for user space. */
const msPerTick = 10;

/**
 * The CPU time (user + system, all threads) in a /proc/<pid>/stat line. The fields after the
 * parenthesised command name (which may itself hold spaces and parentheses) start with the state;
 * utime and stime are the 12th and 13th of them.
 */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error("not a /proc/<pid>/stat line");
  return (utime + stime) * msPerTick;
}

/** The process and its descendants (a clustered Vrata: the primary and its workers). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter((field) => field !== "")
      .map(Number);
  } catch {
    // ended meanwhile
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time one process has used so far, all its threads together (0 once it has ended). */
function processCpuMs(pid: number): number {
  try {
    return statCpuMs(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return 0;
  }
}

/** CPU time a process and all its descendants (workers, helpers) have used so far. */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + processCpuMs(each), 0);
}

/** CPU time per request over a window; NaN when nothing was answered or nothing was counted. */
export function cpuMsPerRequest(cpuMs: number | undefined, requests: number | undefined): number {
  if (cpuMs === undefined || requests === undefined || requests <= 0) return NaN;
  return cpuMs / requests;
}

/** a / b, NaN unless both are finite and b is positive: a ratio of missing figures is no figure. */
export function ratio(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return NaN;
  return a / b;
}
