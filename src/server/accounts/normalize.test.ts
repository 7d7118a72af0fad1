import { describe, expect, it } from "vitest";
import { normalizeIdentifier } from "./normalize.ts";

describe("identifiers in one script", () => {
  it.each([
    "alice",
    "Ελληνικά",
    "日本語abc",
    "user_1.2-3",
    "ана@пример.рф",
    "alice@例え.jp",
    "mario@example.com",
  ])("accepts %j", (typed) => {
    expect(normalizeIdentifier(typed)).toMatchObject({ display: typed });
  });

  it.each(["pаypal", "Ωmega", "pаypal@example.com", "alice@exаmple.com", "alice@example.cοm"])(
    "refuses the look-alike %j",
    (typed) => {
      expect(normalizeIdentifier(typed)).toBe("invalid");
    },
  );
});
