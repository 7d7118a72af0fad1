import { describe, expect, it } from "vitest";
import { passwordHashesInFlight } from "../../common/limits.ts";
import { hashesAtOnce } from "./passwords.ts";

describe("hashes at once", () => {
  it("gives each serving process the cores it has to itself, one at least", () => {
    expect(hashesAtOnce(1, 1)).toBe(1);
    expect(hashesAtOnce(1, 2)).toBe(2);
    expect(hashesAtOnce(2, 2)).toBe(1);
    expect(hashesAtOnce(3, 8)).toBe(2);
    expect(hashesAtOnce(8, 2)).toBe(1);
  });

  it("stays within the limit however many cores there are", () => {
    expect(hashesAtOnce(1, 64)).toBe(passwordHashesInFlight);
    expect(hashesAtOnce(2, 64)).toBe(passwordHashesInFlight);
  });
});
