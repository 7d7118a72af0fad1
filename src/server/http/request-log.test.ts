import { describe, expect, it } from "vitest";
import { requestFields } from "./request-log.ts";

const token = "Xy7Q2mZ8abcdefghijk123".padEnd(43, "x");
const fieldsOf = (url: string) => requestFields({ method: "GET", url, id: "1" });

describe("the log's request fields", () => {
  it("leave out an invitation link's secret, on the page and the API paths", () => {
    const cases: [string, string][] = [
      [`/invitation/${token}`, "/invitation/…"],
      [`/api/invitation/${token}`, "/api/invitation/…"],
      [`/api/invitation/accept/${token}`, "/api/invitation/accept/…"],
      [`/invitation/decline/${token}?x=1`, "/invitation/decline/…"],
    ];
    for (const [url, path] of cases) {
      expect(fieldsOf(url).path).toBe(path);
      expect(JSON.stringify(fieldsOf(url))).not.toContain(token);
    }
  });

  it("name other paths as they are, without the query", () => {
    expect(fieldsOf(`/auth/${token}?code=123456`).path).toBe(`/auth/${token}`);
    expect(fieldsOf("/o/app/a/b").path).toBe("/o/app/a/b");
  });
});
