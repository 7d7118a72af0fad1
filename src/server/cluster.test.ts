import { describe, expect, it } from "vitest";
import { addedWorkerEnvironment } from "./cluster.ts";

describe("the workers' environment", () => {
  it("holds glibc's malloc to two arenas", () => {
    expect(addedWorkerEnvironment({ PATH: "/usr/bin" })).toEqual({ MALLOC_ARENA_MAX: "2" });
  });

  it("keeps the operator's choice, made with the variable or with a glibc tunable", () => {
    expect(addedWorkerEnvironment({ MALLOC_ARENA_MAX: "8" })).toEqual({});
    expect(addedWorkerEnvironment({ GLIBC_TUNABLES: "glibc.malloc.arena_max=4" })).toEqual({});
  });

  it("adds the limit beside other glibc tunables", () => {
    expect(addedWorkerEnvironment({ GLIBC_TUNABLES: "glibc.malloc.trim_threshold=131072" })).toEqual({
      MALLOC_ARENA_MAX: "2",
    });
  });
});
