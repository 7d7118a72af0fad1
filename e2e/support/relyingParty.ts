import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { request } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as client from "openid-client";

// A small relying party on loopback for end-to-end tests, a public client or a backend one with its
// secret: /login starts an authorization code flow with PKCE at Vrata (passing on the `prompt` and
// `ui_locales` it is given), /callback finishes it and shows the ID token's claims as JSON in a <pre>;
// /logout sends the person to Vrata's logout with the ID token as hint, and /signed-out is where
// Vrata sends them back.

/** Node's fetch cannot be given a CA: a fetch over node:https that trusts the server's generated CA. */
function fetchTrusting(ca: string): client.CustomFetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      const headers = new Headers(init.headers);
      const req = request(
        url,
        { method: init.method, headers: Object.fromEntries(headers.entries()), ca },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined)
                responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
            }
            const response = new Response(Buffer.concat(chunks), {
              status: res.statusCode ?? 500,
              headers: responseHeaders,
            });
            Object.defineProperty(response, "url", { value: url.href });
            resolve(response);
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      const body = init.body;
      if (typeof body === "string" || body instanceof Uint8Array) req.write(body);
      else if (body instanceof URLSearchParams) req.write(body.toString());
      req.end();
    });
}

export interface RelyingParty {
  /** http://127.0.0.1:<port>, what the organization fills in as uriBase. */
  readonly base: string;
  /**
   * Starts using the client ID the organization's application got: a public client's, or with its
   * secret a backend client's (sent in the Authorization header).
   */
  setClient(issuer: string, clientId: string, secret?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startRelyingParty(): Promise<RelyingParty> {
  const dataDir = process.env.VRATA_E2E_DATA;
  if (!dataDir) throw new Error("VRATA_E2E_DATA is not set");
  const ca = readFileSync(path.join(dataDir, "tls", "ca.pem"), "utf8");
  let config: client.Configuration | undefined;
  const pending = new Map<string, { verifier: string; nonce: string }>();
  let lastIdToken: string | undefined;
  const page = (heading: string, body: string) =>
    `<!doctype html><html lang="en"><title>Relying party</title><h1>${heading}</h1>${body}</html>`;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", base);
      if (!config) {
        res.writeHead(503).end("no client");
        return;
      }
      if (url.pathname === "/login") {
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        const nonce = client.randomNonce();
        pending.set(state, { verifier, nonce });
        const passedOn = ["prompt", "ui_locales"].flatMap((name) => {
          const value = url.searchParams.get(name);
          return value ? [[name, value] as const] : [];
        });
        const location = client.buildAuthorizationUrl(config, {
          redirect_uri: `${base}/callback`,
          scope: "openid",
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state,
          nonce,
          ...Object.fromEntries(passedOn),
        });
        res.writeHead(302, { Location: location.href }).end();
        return;
      }
      if (url.pathname === "/callback") {
        const state = url.searchParams.get("state") ?? "";
        const started = pending.get(state);
        if (!started) {
          res.writeHead(400).end("unknown state");
          return;
        }
        pending.delete(state);
        const tokens = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: started.verifier,
          expectedState: state,
          expectedNonce: started.nonce,
        });
        lastIdToken = tokens.id_token;
        const claims = JSON.stringify(tokens.claims() ?? {}, null, 2).replaceAll("<", "\\u003c");
        res
          .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
          .end(
            page("Signed in", `<pre id="claims">${claims}</pre><a href="/logout">Sign out of the app</a>`),
          );
        return;
      }
      if (url.pathname === "/logout") {
        const locale = url.searchParams.get("ui_locales");
        // `?hint=none` signs out as an app that kept no ID token would: by its client ID alone.
        const withHint = lastIdToken && url.searchParams.get("hint") !== "none";
        const location = client.buildEndSessionUrl(config, {
          ...(withHint ? { id_token_hint: lastIdToken } : {}),
          post_logout_redirect_uri: `${base}/signed-out`,
          state: "signed-out-state",
          ...(locale ? { ui_locales: locale } : {}),
        });
        res.writeHead(302, { Location: location.href }).end();
        return;
      }
      if (url.pathname === "/signed-out") {
        const state = (url.searchParams.get("state") ?? "").replace(/[^\w-]/g, "");
        res
          .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
          .end(page("Signed out of the app", `<p id="state">${state}</p>`));
        return;
      }
      // Browsers ask every site for its icon; a missing one would be logged as a failed load.
      if (url.pathname === "/favicon.ico") {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(404).end();
    })().catch((error: unknown) => {
      res.writeHead(500, { "Content-Type": "text/plain" }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    async setClient(issuer, clientId, secret) {
      const customFetch = fetchTrusting(ca);
      const authentication = secret === undefined ? client.None() : client.ClientSecretBasic(secret);
      config = await client.discovery(new URL(issuer), clientId, undefined, authentication, {
        [client.customFetch]: customFetch,
      });
      config[client.customFetch] = customFetch;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
