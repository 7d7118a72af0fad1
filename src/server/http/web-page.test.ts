import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { asksForPage, webPageFile } from "./web-page.ts";

describe("the web app's page for an address", () => {
  it("is the light page where a person arrives from an app", () => {
    expect(webPageFile("/auth/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")).toBe("card.html");
    expect(webPageFile("/auth/oidc/authorize?client_id=app&ui_locales=sl")).toBe("card.html");
    expect(webPageFile("/auth/oidc/authorize/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")).toBe("card.html");
    expect(webPageFile("/auth/oidc/logout")).toBe("card.html");
    expect(webPageFile("/auth/oidc/logout/success")).toBe("card.html");
    expect(webPageFile("/about")).toBe("card.html");
    expect(webPageFile("/LICENSE")).toBe("card.html");
    expect(webPageFile("/auth/provider/eid")).toBe("card.html");
  });

  it("is the console's page everywhere else, unknown addresses too", () => {
    expect(webPageFile("/")).toBe("index.html");
    expect(webPageFile("/?code=x&state=y")).toBe("index.html");
    expect(webPageFile("/i")).toBe("index.html");
    expect(webPageFile("/o/someOrganization")).toBe("index.html");
    expect(webPageFile("/auth/a/b")).toBe("index.html");
    expect(webPageFile("/About")).toBe("index.html");
  });
});

describe("a request that loads a page", () => {
  const request = (method: string, url: string, accept: string) =>
    ({ method, url, headers: { accept } }) as unknown as FastifyRequest;
  const html = "text/html,application/xhtml+xml,*/*;q=0.8";

  it("is a GET for HTML, or an IdP's form posted for HTML to where providers answer", () => {
    expect(asksForPage(request("GET", "/o/someOrganization", html))).toBe(true);
    expect(asksForPage(request("POST", "/auth/provider/eid", html))).toBe(true);
    expect(asksForPage(request("GET", "/auth/provider/eid?state=x", html))).toBe(true);
  });

  it("is not a request for JSON, an API call, or a POST elsewhere", () => {
    expect(asksForPage(request("POST", "/auth/provider/eid", "application/json"))).toBe(false);
    expect(
      asksForPage(request("POST", "/auth/passwordStart/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", html)),
    ).toBe(false);
    expect(asksForPage(request("POST", "/api/auth/provider/eid", html))).toBe(false);
    expect(asksForPage(request("POST", "/o/create", html))).toBe(false);
    expect(asksForPage(request("PUT", "/auth/provider/eid", html))).toBe(false);
  });
});
