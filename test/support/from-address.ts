import https from "node:https";

/** What the tests use of fetch: a URL and method, headers and a text body. */
export type Send = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * fetch from a chosen loopback address (any of 127.0.0.0/8), so that the server sees requests from
 * many different clients. It never follows redirects.
 */
export function fetchFrom(localAddress: string): Send {
  // Connections are kept open between requests: a TLS handshake per request would dominate the tests.
  const agent = new https.Agent({ keepAlive: true, localAddress, family: 4 });
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const options = { method: init.method ?? "GET", headers, agent };
      const request = https.request(url, options, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const received = new Headers();
          const raw = response.rawHeaders;
          for (let index = 0; index + 1 < raw.length; index += 2) {
            received.append(raw[index] ?? "", raw[index + 1] ?? "");
          }
          const status = response.statusCode ?? 0;
          const body = [204, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers: received }));
        });
      });
      request.on("error", reject);
      request.end(typeof init.body === "string" ? init.body : undefined);
    });
}
