import { describe, expect, it } from "vitest";
import { initialsOf } from "./Avatar.tsx";

describe("initialsOf", () => {
  it("takes the first letters of the first two words", () => {
    expect(initialsOf("Ada Lovelace")).toBe("AL");
    expect(initialsOf("ada")).toBe("A");
    expect(initialsOf("Maria de la Cruz")).toBe("MD");
    expect(initialsOf("žiga_novak")).toBe("ŽN");
  });

  it("reads an e-mail address by the part before its domain", () => {
    expect(initialsOf("ada.lovelace@example.com")).toBe("AL");
    expect(initialsOf("ada@example.com")).toBe("A");
  });

  it("keeps letters outside the basic plane whole and has a mark for a name without letters", () => {
    expect(initialsOf("𝒜da")).toBe("𝒜");
    expect(initialsOf("  ")).toBe("?");
  });
});
