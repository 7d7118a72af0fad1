import fs from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextSchema } from "../src/common/api/context.ts";
import { apiPrefix, routes, type RouteDefinition } from "../src/common/routes.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());

const get = (path: string, init?: RequestInit) => fetch(server.url + path, init);
/** The route's path with each parameter set to a value of its format that names nothing. */
const sample = (route: RouteDefinition) =>
  route.path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    // Flow IDs and link tokens are 43 characters long; other IDs are shorter.
    ["flowId", "linkToken"].includes(route.params?.[name] ?? "")
      ? "Xy7Q2mZ8abcdefghijk123".padEnd(43, "x")
      : "Xy7Q2mZ8abcdefghijk123",
  );

describe("route table over HTTP", () => {
  it.each(Object.entries(routes).filter(([, route]) => route.view))(
    "%s serves the web app",
    async (_, route) => {
      // As a browser asks for a page: /LICENSE and /NOTICE answer other clients with their text.
      const response = await get(sample(route), { headers: { accept: "text/html" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toMatch(/^<!doctype html>/i);
    },
  );

  it.each(Object.entries(routes).filter(([, route]) => route.api))(
    "%s answers as an API, under /api too",
    async (_, route) => {
      const urls = route.page ? [apiPrefix + sample(route)] : [sample(route), apiPrefix + sample(route)];
      for (const url of urls) {
        const answers = [
          await get(url),
          await get(url, { method: "POST", body: "", headers: { "content-type": "text/plain" } }),
        ];
        const unrouted = await Promise.all(
          answers.map(async (response) => {
            if (response.status !== 404) return false;
            const body = (await response.clone().json()) as { message?: string };
            return (body.message ?? "").startsWith("no route for");
          }),
        );
        // A 404 about the item (an unknown flow or identity) is fine; one about the path is not.
        expect(unrouted, url).not.toEqual([true, true]);
        for (const response of answers) {
          // The logout endpoint is where apps send a browser: it answers with a page, under /api too.
          const type =
            route === routes.OIDCEndSession && response.status === 200
              ? /^text\/html/
              : /^application\/(jwk-set\+)?json/;
          expect(response.headers.get("content-type"), url).toMatch(type);
          // Until its capability lands, a route says so with 501; it never fails with a 500.
          if (response.status >= 500) {
            expect(await response.json(), url).toMatchObject({ error: "notImplemented" });
          }
        }
      }
    },
  );

  it("serves the license documents as text", async () => {
    for (const route of [routes.License, routes.Notice]) {
      const response = await get(route.path);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toMatch(route === routes.License ? /Apache License/ : /Vrata/);
    }
  });

  it("describes the console in /context.json", async () => {
    const context = contextSchema.parse(await (await get(routes.Context.path)).json());
    expect(context).toMatchObject({
      redirectUri: `${server.issuer}/`,
      title: "Vrata",
      locales: ["en", "sl"],
    });
    expect(context.clientId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{22}$/);
  });

  it("matches paths strictly and answers 404 JSON for unknown ones", async () => {
    for (const path of [
      "/a/",
      "/A",
      "/api/a/",
      "/context.json/",
      "/nope",
      "/api",
      "/auth/oidc/Token",
      "/assets/none.js",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ error: "notFound" });
    }
  });

  it("sends the light page's scripts compressed as the browser accepts, and as they are otherwise", async () => {
    // The sign-in page's own script, as the browser finds it in the page.
    const page = await (await get(routes.AuthFlowGet.path.replace(":id", "x"))).text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(page)?.[1] ?? "";
    expect(script).toMatch(/^\/assets\/.+\.js$/);
    const fetchRaw = (acceptEncoding?: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const request = https.get(server.url + script, {
          ca: fs.readFileSync(server.tls?.caFile ?? ""),
          headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
        });
        request.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        });
        request.on("error", reject);
      });
    const plain = await fetchRaw();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("import");
    const brotli = await fetchRaw("gzip, deflate, br");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 2);
    expect(zlib.brotliDecompressSync(brotli.body)).toEqual(plain.body);
    const gzip = await fetchRaw("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body)).toEqual(plain.body);
  });

  it("sends security headers with the web app", async () => {
    const response = await get("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("speaks HTTP/2 over TLS", async () => {
    const session = http2.connect(server.url, { ca: fs.readFileSync(server.tls?.caFile ?? "") });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = session.request({ ":path": routes.Context.path });
        let status = 0;
        request.on("response", (headers) => (status = Number(headers[":status"])));
        request.on("end", () => resolve(status));
        request.on("error", reject);
        request.resume();
        request.end();
      });
      expect(status).toBe(200);
    } finally {
      session.close();
    }
  });
});

describe("bad input", () => {
  it("gets a 4xx JSON error with a stable code, never a 500", async () => {
    const cases: [string, RequestInit, number, string][] = [
      [
        "/api/a/create",
        { method: "POST", body: "{not json", headers: { "content-type": "application/json" } },
        400,
        "badRequest",
      ],
      [
        "/api/a/create",
        {
          method: "POST",
          body: JSON.stringify({ name: "x".repeat(70_000) }),
          headers: { "content-type": "application/json" },
        },
        413,
        "payloadTooLarge",
      ],
      [
        "/api/a/create",
        { method: "POST", body: "<a/>", headers: { "content-type": "application/xml" } },
        415,
        "unsupportedMediaType",
      ],
    ];
    for (const [path, init, status, code] of cases) {
      const response = await get(path, init);
      expect(response.status, path).toBe(status);
      expect(await response.json(), path).toMatchObject({ error: code });
    }
  });

  it("gets an OAuth error from introspection and revocation for a body too large to read", async () => {
    for (const path of [routes.OIDCIntrospect.path, routes.OIDCRevoke.path]) {
      const response = await get(path, {
        method: "POST",
        body: `token=${"x".repeat(70_000)}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(response.status, path).toBe(413);
      expect(await response.json(), path).toMatchObject({ error: "invalid_request" });
    }
  });

  it("gets an OAuth error for a body too large that comes without its length, in pieces", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = https.request(server.url + routes.OIDCIntrospect.path, {
        method: "POST",
        ca: fs.readFileSync(server.tls?.caFile ?? ""),
        headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
      for (const piece of ["token=", "x".repeat(40_000), "x".repeat(40_000)]) request.write(piece);
      request.end();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "invalid_request" });
  });

  it("gets OAuth errors from the token endpoint", async () => {
    const garbage = [
      { body: "grant_type=authorization_code&code=nope", type: "application/x-www-form-urlencoded" },
      { body: "%%%", type: "application/x-www-form-urlencoded" },
      { body: "{}", type: "application/json" },
      { body: "x".repeat(200_000), type: "application/x-www-form-urlencoded" },
    ];
    for (const { body, type } of garbage) {
      const response = await get(routes.OIDCToken.path, {
        method: "POST",
        body,
        headers: { "content-type": type },
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(((await response.json()) as { error: string }).error).toMatch(/^invalid_|^unsupported_/);
    }
  });
});

describe("CORS per spec §7", () => {
  const crossOrigin = "https://app.example";
  const preflight = (path: string, method: string) =>
    get(path, {
      method: "OPTIONS",
      headers: {
        origin: crossOrigin,
        "access-control-request-method": method,
        "access-control-request-headers": "authorization",
      },
    });

  const allowed: [string, string, boolean][] = [
    [routes.OIDCToken.path, "POST", true],
    [routes.OIDCRevoke.path, "POST", true],
    [routes.OIDCUserinfo.path, "GET", true],
    [routes.OIDCUserinfo.path, "POST", true],
    [routes.OIDCKeys.path, "GET", false],
    [routes.OIDCDiscovery.path, "GET", false],
    [routes.OAuthDiscovery.path, "GET", false],
  ];

  it.each(
    allowed.flatMap(([path, method, auth]) => [
      [path, method, auth] as const,
      [apiPrefix + path, method, auth] as const,
    ]),
  )("%s allows %s from any origin", async (path, method, authorization) => {
    const response = await preflight(path, method);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-max-age")).toBe("600");
    expect(response.headers.get("access-control-allow-methods")).toContain(method);
    expect(/authorization/i.test(response.headers.get("access-control-allow-headers") ?? "")).toBe(
      authorization,
    );
  });

  it("allows HEAD on userinfo, keys and discovery", async () => {
    for (const path of [routes.OIDCUserinfo.path, routes.OIDCKeys.path, routes.OIDCDiscovery.path]) {
      const methods = (await preflight(path, "HEAD")).headers.get("access-control-allow-methods");
      expect(methods, path).toContain("HEAD");
    }
  });

  it("marks actual responses for any origin", async () => {
    for (const path of [routes.OIDCKeys.path, routes.OIDCDiscovery.path, routes.OAuthDiscovery.path]) {
      const response = await get(path, { headers: { origin: crossOrigin } });
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
    }
  });

  it("does not open introspection or the web app to other origins", async () => {
    for (const path of [routes.OIDCIntrospect.path, "/", routes.Context.path]) {
      const response = await preflight(path, "POST");
      expect(response.headers.get("access-control-allow-origin"), path).toBeNull();
    }
  });
});
