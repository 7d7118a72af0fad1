import { describe, expect, it } from "vitest";
import { appScopeNameProblem, grantedScopes, scopeDescription, templateScopeProblems } from "./scopes.ts";

describe("scopes of an app's own API", () => {
  it("are named with a letter or digit first, then letters, digits and :._-/, at most 100 characters", () => {
    for (const name of ["orders:read", "api/v1.write", "9lives", "a_b-c", "x".repeat(100)]) {
      expect(appScopeNameProblem(name), name).toBeUndefined();
    }
    for (const name of ["", ":orders", "orders read", "orders,read", "čaj", "x".repeat(101), "-a"]) {
      expect(appScopeNameProblem(name), name).toBe("invalidScopeName");
    }
  });

  it("never take an OpenID scope's name, whatever its case", () => {
    for (const name of ["openid", "Profile", "EMAIL", "offline_access", "address", "phone"]) {
      expect(appScopeNameProblem(name), name).toBe("reservedScopeName");
    }
  });

  it("are granted only where the template defines them, the OpenID scopes going their own way", () => {
    const template = { idScopes: ["openid", "profile"], appScopes: [{ name: "orders:read" }] };
    expect(grantedScopes(template, ["orders:read", "offline_access", "invoices:read", "openid"])).toEqual({
      openId: ["openid", "profile", "offline_access"],
      app: ["orders:read"],
    });
  });

  it("of a template are each checked at their field", () => {
    const problems = templateScopeProblems({
      idScopes: ["openid", "orders:read"],
      appScopes: [{ name: "orders:read" }, { name: "orders:read" }],
      clientsPublic: [],
      clientsBackend: [{ additionalScopes: ["orders:read", "email", "orders:write"] }],
      clientsService: [],
    });
    expect(problems).toEqual([
      { field: "appScopes.1.name", code: "duplicateScope", scope: "orders:read" },
      { field: "idScopes.1", code: "unknownScope", scope: "orders:read" },
      { field: "clientsBackend.0.additionalScopes.2", code: "unknownScope", scope: "orders:write" },
    ]);
  });

  it("are described in the person's language, else in the other, else by their name", () => {
    const scope = { name: "orders:read", description: { en: "See orders", sl: "Ogled naročil" } };
    expect(scopeDescription(scope, "sl")).toBe("Ogled naročil");
    expect(scopeDescription(scope, "en-US")).toBe("See orders");
    expect(scopeDescription({ ...scope, description: { en: "See orders", sl: "" } }, "sl")).toBe(
      "See orders",
    );
    expect(scopeDescription({ ...scope, description: { en: "", sl: "" } }, "en")).toBe("orders:read");
  });
});
