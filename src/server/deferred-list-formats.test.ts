import { describe, expect, it } from "vitest";
import { withDeferredListFormats } from "./deferred-list-formats.ts";

describe("list formats made while the server's modules load", () => {
  it("word lists as Intl.ListFormat does, and leave Intl.ListFormat as it was", async () => {
    const native = Intl.ListFormat;
    const [conjunction, disjunction] = await withDeferredListFormats(() =>
      Promise.resolve([
        new Intl.ListFormat("en", { type: "conjunction" }),
        new Intl.ListFormat("en", { type: "disjunction" }),
      ]),
    );
    expect(Intl.ListFormat).toBe(native);
    expect(conjunction.format(["openid", "email", "profile"])).toBe("openid, email, and profile");
    expect(disjunction.format(["code", "token"])).toBe("code or token");
    expect(conjunction.formatToParts(["a", "b"])).toEqual(
      new native("en", { type: "conjunction" }).formatToParts(["a", "b"]),
    );
    expect(disjunction.resolvedOptions()).toMatchObject({ locale: "en", type: "disjunction" });
  });

  it("restore Intl.ListFormat when loading fails", async () => {
    const native = Intl.ListFormat;
    await expect(withDeferredListFormats(() => Promise.reject(new Error("no such module")))).rejects.toThrow(
      "no such module",
    );
    expect(Intl.ListFormat).toBe(native);
  });
});
