import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextSchema } from "../src/common/api/context.ts";
import { idPattern } from "../src/common/ids.ts";
import { aboutSchema, documentTextSchema } from "../src/common/api/documents.ts";
import { apiPath, routes } from "../src/common/routes.ts";
import { registerErrorHandlers } from "../src/server/http/errors.ts";
import { pageErrorOf } from "./support/page-error.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Errors a person can land on are pages of the web app, carrying the error as data it translates;
// tools and API clients keep plain text and JSON (design.md §4).

const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

let server: TestServer;
let consoleClientId: string;
let pagePolicy: string;
beforeAll(async () => {
  server = await startTestServer();
  const context = contextSchema.parse(await (await fetch(server.url + routes.Context.path)).json());
  consoleClientId = context.clientId;
  pagePolicy = (await fetch(server.url + "/")).headers.get("content-security-policy") ?? "";
});
afterAll(() => server.dispose());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers, redirect: "manual" });

const authorize = (parameters: Record<string, string>) =>
  `${routes.OIDCAuthorize.path}?${new URLSearchParams(parameters).toString()}`;

describe("license documents", () => {
  it.each([
    ["License", /Apache License/],
    ["Notice", /Vrata/],
  ] as const)("%s is plain text for tools and a page for browsers", async (name, content) => {
    for (const accept of [undefined, "*/*", "text/plain"]) {
      const response = await get(routes[name].path, accept ? { accept } : {});
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("vary")).toMatch(/accept/i);
      expect(await response.text()).toMatch(content);
    }

    const page = await get(routes[name].path, browser);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("vary")).toMatch(/accept/i);
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(pageErrorOf(html)).toBeUndefined();

    // The page reads the text from the API, where it is the same as the plain text.
    const document = documentTextSchema.parse(await (await get(apiPath(name))).json());
    expect(document.text).toBe(await (await get(routes[name].path)).text());
  });

  it("describes the instance for the About page", async () => {
    const page = await get(routes.About.path, browser);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const about = aboutSchema.parse(await (await get(apiPath("About"))).json());
    expect(about).toMatchObject({ title: "Vrata", issuer: server.issuer });
    expect(about.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("unknown paths", () => {
  it.each(["/nope", "/a/", "/o/app/only-one-id", "/LICENSE.txt"])(
    "%s is a 404 page for a browser and JSON for others",
    async (path) => {
      const page = await get(path, browser);
      expect(page.status).toBe(404);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.headers.get("content-security-policy")).toBe(pagePolicy);
      expect(page.headers.get("vary")).toMatch(/accept/i);
      expect(pageErrorOf(await page.text())).toEqual({ error: "notFound" });

      for (const accept of [undefined, "application/json", "*/*"]) {
        const response = await get(path, accept ? { accept } : {});
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ error: "notFound" });
      }
    },
  );

  it("keeps JSON under /api and on API routes, whatever the request accepts", async () => {
    for (const path of ["/api/nope", "/api", apiPath("IdentityList") + "/x/y", "/auth/passwordStart/short"]) {
      const response = await get(path, browser);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(await response.json(), path).toMatchObject({ error: "notFound" });
    }
  });

  it("answers a POST to an unknown path with JSON", async () => {
    const response = await fetch(server.url + "/nope", { method: "POST", headers: browser });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "notFound" });
  });
});

describe("the OIDC engine's errors", () => {
  it("answers an authorization request without parameters with a 400 page leading home", async () => {
    const response = await get(routes.OIDCAuthorize.path, browser);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-security-policy")).toBe(pagePolicy);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(pageErrorOf(await response.text())).toEqual({ error: "invalid_request" });
  });

  it("answers an unknown client with a 400 page in the language the app asked for", async () => {
    const response = await get(
      authorize({
        client_id: "nobody",
        response_type: "code",
        scope: "openid",
        redirect_uri: "https://evil.example/",
        ui_locales: "sl-SI en",
      }),
      browser,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(pageErrorOf(await response.text())).toEqual({ error: "invalid_client", locale: "sl" });
  });

  it("answers a redirect URI the client does not have with a 400 page leading to the app's homepage", async () => {
    const response = await get(
      authorize({
        client_id: consoleClientId,
        response_type: "code",
        scope: "openid",
        redirect_uri: "https://evil.example/",
      }),
      browser,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    const html = await response.text();
    expect(pageErrorOf(html)).toEqual({
      error: "invalid_redirect_uri",
      app: { name: "Console", homepage: `${server.issuer}/` },
    });
    expect(html).not.toContain("evil.example");
  });

  it("never lets the request's text into the page", async () => {
    const response = await get(
      authorize({ client_id: "</script><script>alert(1)</script>", ui_locales: "<b>", state: "$&" }),
      browser,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).not.toContain("alert(1)");
    expect(html).not.toContain("<b>");
    expect(pageErrorOf(html)).toEqual({ error: "invalid_client" });
  });
});

describe("faults of the server", () => {
  it("answers the engine's own fault with a 500 page naming the request ID", async () => {
    const broken = await startTestServer();
    try {
      // Without its store the engine cannot look the client up: a fault of the server, not of the request.
      await broken.db.destroy();
      const response = await fetch(
        broken.url +
          authorize({ client_id: "Xy7Q2mZ8abcdefghijk123", response_type: "code", scope: "openid" }),
        { headers: browser },
      );
      expect(response.status).toBe(500);
      const pageError = pageErrorOf(await response.text());
      expect(pageError?.error).toBe("server_error");
      expect(pageError?.requestId).toMatch(idPattern);
      // The same ID the response names, for whoever reads the log by it.
      expect(response.headers.get("x-request-id")).toBe(pageError?.requestId);
    } finally {
      await broken.dispose();
    }
  });

  it("answers a fault on a page with a 500 page and on an API call with JSON, both naming the request ID", async () => {
    const app = Fastify({ genReqId: () => "the-request" });
    registerErrorHandlers(app, () =>
      Promise.resolve("<!doctype html><html><head></head><body></body></html>"),
    );
    app.get("/fails", () => {
      throw new Error("a fault of ours");
    });
    app.get("/api/fails", () => {
      throw new Error("a fault of ours");
    });
    try {
      const page = await app.inject({ url: "/fails", headers: browser });
      expect(page.statusCode).toBe(500);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      expect(pageErrorOf(page.body)).toEqual({ error: "unexpected", requestId: "the-request" });

      const call = await app.inject({ url: "/api/fails", headers: browser });
      expect(call.statusCode).toBe(500);
      expect(call.json()).toEqual({
        error: "unexpected",
        message: "Unexpected error.",
        requestId: "the-request",
      });
    } finally {
      await app.close();
    }
  });
});
