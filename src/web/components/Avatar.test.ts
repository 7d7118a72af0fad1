import { describe, expect, it } from "vitest";
import { initials } from "./Avatar.tsx";

describe("initials", () => {
  it("take the first letters of the first two words", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("ada  king lovelace")).toBe("AK");
    expect(initials("ada")).toBe("A");
  });

  it("take an e-mail address by the part before the @", () => {
    expect(initials("ada@example.com")).toBe("A");
  });

  it("keep whole characters as people see them", () => {
    expect(initials("élan vital")).toBe("ÉV");
    expect(initials("👩‍💻 dev")).toBe("👩‍💻D");
  });

  it("are a question mark for nothing at all", () => {
    expect(initials("")).toBe("?");
  });
});
