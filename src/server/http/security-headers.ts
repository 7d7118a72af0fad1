import helmet from "@fastify/helmet";
import fp from "fastify-plugin";

export interface SecurityHeadersOptions {
  issuer: string;
  /** Vite's development server needs inline scripts and its hot-reload socket. */
  dev: boolean;
}

function isLocalhost(origin: string): boolean {
  return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(origin).hostname);
}

/** Security headers on every response: a strict CSP for the SPA, no framing, no sniffing, HSTS. */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(async (app, { issuer, dev }) => {
  await app.register(helmet, {
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
  });
  // API answers are about one person at one moment: no cache may keep or share them.
  app.addHook("onRequest", (request, reply, done) => {
    if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
    done();
  });
});
