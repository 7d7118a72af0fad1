import { describe, expect, it } from "vitest";
import { lifespanInput, lifespanSeconds } from "./lifespan.ts";

describe("lifespans", () => {
  it("are shown in the largest unit that holds them whole", () => {
    expect(lifespanInput(3600)).toEqual({ amount: "1", unit: "hours" });
    expect(lifespanInput(720 * 3600)).toEqual({ amount: "30", unit: "days" });
    expect(lifespanInput(5400)).toEqual({ amount: "90", unit: "minutes" });
    expect(lifespanInput(36 * 3600)).toEqual({ amount: "36", unit: "hours" });
    expect(lifespanInput(undefined)).toEqual({ amount: "", unit: "days" });
  });

  it("turn back into the same seconds, even when no unit holds them whole", () => {
    for (const seconds of [1, 7, 59, 60, 90, 3599, 3600, 86_399, 86_400, 30 * 86_400]) {
      expect(lifespanSeconds(lifespanInput(seconds))).toBe(seconds);
    }
  });

  it("read what people type, in any unit", () => {
    expect(lifespanSeconds({ amount: "15", unit: "minutes" })).toBe(900);
    expect(lifespanSeconds({ amount: " 2 ", unit: "hours" })).toBe(7200);
    expect(lifespanSeconds({ amount: "1,5", unit: "hours" })).toBe(5400);
    expect(lifespanSeconds({ amount: "7", unit: "days" })).toBe(604_800);
    expect(lifespanSeconds({ amount: "", unit: "days" })).toBeUndefined();
  });

  it("refuse what the server would refuse", () => {
    expect(lifespanSeconds({ amount: "0", unit: "hours" })).toBeNull();
    expect(lifespanSeconds({ amount: "-1", unit: "hours" })).toBeNull();
    expect(lifespanSeconds({ amount: "soon", unit: "hours" })).toBeNull();
    expect(lifespanSeconds({ amount: "3650", unit: "days" })).toBe(3650 * 86_400);
    expect(lifespanSeconds({ amount: "3651", unit: "days" })).toBeNull();
  });
});
