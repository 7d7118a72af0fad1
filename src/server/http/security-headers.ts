import type { IncomingMessage, ServerResponse } from "node:http";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

export interface SecurityHeadersOptions {
  issuer: string;
  /** Vite's development server needs inline scripts and its hot-reload socket. */
  dev: boolean;
}

function isLocalhost(origin: string): boolean {
  return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(origin).hostname);
}

function helmetOptions({ issuer, dev }: SecurityHeadersOptions): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        styleSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        imgSrc: ["'self'", "data:", "https:"],
        connectSrc: dev ? ["'self'", "ws://localhost:*"] : ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    // HSTS on localhost would pin every port of it to HTTPS in the browser, breaking unrelated tools.
    strictTransportSecurity: isLocalhost(issuer) ? false : { maxAge: 31536000, includeSubDomains: false },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "no-referrer" },
  };
}

/**
 * The headers helmet sets with these options. They are the same on every response, so helmet runs
 * once at start-up instead of on every request.
 */
function securityHeaders(options: SecurityHeadersOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a header map keyed by name
      delete headers[name.toLowerCase()];
    },
  };
  const request: unknown = {};
  helmet(helmetOptions(options))(
    request as IncomingMessage,
    response as unknown as ServerResponse,
    (error) => {
      if (error) throw new Error("helmet refused the security header options", { cause: error });
    },
  );
  return headers;
}

/** Security headers on every response: a strict CSP for the SPA, no framing, no sniffing, HSTS. */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>((app, options, done) => {
  const headers = securityHeaders(options);
  app.addHook("onRequest", (request, reply, next) => {
    reply.headers(headers);
    // API answers are about one person at one moment: no cache may keep or share them.
    if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
    next();
  });
  done();
});
