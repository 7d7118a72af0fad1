import type { FastifyRequest, onRequestHookHandler } from "fastify";
import { HttpError } from "./errors.ts";

// Flow steps, sign-out and identity changes made from a flow are proven by cookies alone, and a
// browser sends SameSite=Lax cookies with a POST from any page of the same site (another subdomain,
// say). Such a page can send a form or a body-less request, but not JSON without the browser's
// CORS check, and the browser tells where the request comes from. Clients that are not browsers send
// neither header, and hold no cookie of anyone else's.

const readsOnly = new Set(["GET", "HEAD"]);

const mediaType = (request: FastifyRequest) =>
  request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();

/** Refuses a write that comes from another origin or carries anything but a JSON body. */
export function requireSameOriginJson(request: FastifyRequest, issuer: string): void {
  if (readsOnly.has(request.method)) return;
  const { origin: sentOrigin, "sec-fetch-site": fetchSite } = request.headers;
  if (
    (sentOrigin !== undefined && sentOrigin !== new URL(issuer).origin) ||
    (fetchSite !== undefined && fetchSite !== "same-origin")
  ) {
    throw new HttpError(403, "forbidden", "this request may only come from this site's own pages");
  }
  if (mediaType(request) !== "application/json") {
    throw new HttpError(415, "unsupportedMediaType", "the body must be application/json");
  }
}

/** A hook applying {@link requireSameOriginJson} to every route of a plugin. */
export function sameOriginJsonWrites(issuer: string): onRequestHookHandler {
  return (request, _reply, done) => {
    try {
      requireSameOriginJson(request, issuer);
      done();
    } catch (error) {
      done(error as HttpError);
    }
  };
}
