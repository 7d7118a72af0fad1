import { createHash } from "node:crypto";
import inject from "light-my-request";
import type Provider from "oidc-provider";

export interface StaticDocument {
  body: string;
  contentType: string;
  etag: string;
}

/**
 * Asks the engine once for a document that only changes with the engine (discovery, the public
 * keys), so it can be served from memory with an ETag instead of through the engine every time.
 */
export async function precompute(provider: Provider, path: string): Promise<StaticDocument> {
  const engine = provider.callback();
  // The engine writes its URLs from the request's origin: the in-memory request must look like one
  // that reached the issuer over HTTPS. The engine serves nothing else while this runs: it is new.
  const trustsProxy = provider.proxy;
  provider.proxy = true;
  const response = await inject((request, reply) => void engine(request, reply), {
    method: "GET",
    url: path,
    headers: { host: new URL(provider.issuer).host, "x-forwarded-proto": "https" },
  }).finally(() => {
    provider.proxy = trustsProxy;
  });
  if (response.statusCode !== 200) throw new Error(`the engine answered ${path} with ${response.statusCode}`);
  return {
    body: response.payload,
    contentType: String(response.headers["content-type"]),
    etag: `"${createHash("sha256").update(response.payload).digest("base64url")}"`,
  };
}
