import { describe, expect, it } from "vitest";
import { apiPath, pathFor, routes } from "./routes.ts";

describe("route table", () => {
  it("fills parameters, encoded", () => {
    expect(pathFor("OrganizationApp", { id: "o1", appId: "a/b" })).toBe("/o/app/o1/a%2Fb");
    expect(() => pathFor("IdentityGet")).toThrow('missing route parameter "id"');
    expect(apiPath("OIDCToken")).toBe("/api/auth/oidc/token");
  });

  it("has one name per path", () => {
    const paths = Object.values(routes).map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
