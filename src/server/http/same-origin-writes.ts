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

/** A hook refusing writes that come from another origin or carry anything but a JSON body. */
export function sameOriginJsonWrites(issuer: string): onRequestHookHandler {
  const origin = new URL(issuer).origin;
  return (request, _reply, done) => {
    if (readsOnly.has(request.method)) {
      done();
      return;
    }
    const { origin: sentOrigin, "sec-fetch-site": fetchSite } = request.headers;
    if (
      (sentOrigin !== undefined && sentOrigin !== origin) ||
      (fetchSite !== undefined && fetchSite !== "same-origin")
    ) {
      done(new HttpError(403, "forbidden", "this request may only come from this site's own pages"));
    } else if (mediaType(request) !== "application/json") {
      done(new HttpError(415, "unsupportedMediaType", "the body must be application/json"));
    } else {
      done();
    }
  };
}
