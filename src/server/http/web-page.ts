import type { FastifyReply, FastifyRequest } from "fastify";
import { pageErrorElementId, type PageError } from "../../common/api/page-error.ts";
import { apiPrefix, routes, type RouteDefinition } from "../../common/routes.ts";

/** Returns the web app's HTML for a page URL (the built file, or Vite's in development). */
export type RenderIndex = (url: string) => Promise<string>;

/** A route's bare path as a pattern, each `:param` matching one segment. */
function pathPattern(route: RouteDefinition): RegExp {
  const literal = route.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${literal.replace(/:[A-Za-z]+/g, "[^/]*")}$`);
}

/** The bare paths of API-only routes (token, flow steps, ...). */
const apiOnlyPaths = Object.values(routes)
  .filter((route) => route.api && !route.page)
  .map(pathPattern);

/** The paths of the pages drawn as one card (the sign-in flow, sign-out, about, the engine's errors). */
const cardPaths = Object.values(routes)
  .filter((route) => route.card)
  .map(pathPattern);

/**
 * The web app's HTML file for a page URL: the light page, holding only the card views, where a person
 * arrives from an app; the console's page everywhere else.
 */
export function webPageFile(url: string): "card.html" | "index.html" {
  const path = url.split("?")[0] ?? "";
  return cardPaths.some((pattern) => pattern.test(path)) ? "card.html" : "index.html";
}

/** The bare paths of pages a browser also loads by posting a form (the SAML assertion consumer service). */
const formPostPaths = Object.values(routes)
  .filter((route) => route.formPost)
  .map(pathPattern);

/** Whether an Accept header lists `text/html` (browsers do when they load a page; `fetch` and curl do not). */
export function acceptsHtml(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((entry) => {
    const [type = "", ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith("q="));
    return type === "text/html" && (quality === undefined || Number(quality.slice(2)) > 0);
  });
}

/**
 * Whether the request is a browser loading a page: a GET for HTML of a path outside the API, or a
 * form posted for HTML to a page that takes one. Such a request gets its errors as pages; every other
 * one gets them as JSON.
 */
export function asksForPage(request: FastifyRequest): boolean {
  const path = request.url.split("?")[0] ?? "";
  const loadsPage =
    request.method === "GET" ||
    request.method === "HEAD" ||
    (request.method === "POST" && formPostPaths.some((pattern) => pattern.test(path)));
  if (!loadsPage) return false;
  if (path === apiPrefix || path.startsWith(apiPrefix + "/")) return false;
  if (apiOnlyPaths.some((pattern) => pattern.test(path))) return false;
  return acceptsHtml(request.headers.accept);
}

/** JSON that cannot end the `<script>` element holding it, nor open a comment in it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The web app's HTML carrying data for the page as an inert block: a `<script>` of type
 * `application/json` is never run, so the page keeps its strict script policy.
 */
export function withDataBlock(html: string, elementId: string, data: unknown): string {
  if (!html.includes("</head>")) throw new Error("the web app's HTML has no </head>");
  const block = `<script type="application/json" id="${elementId}">${scriptSafeJson(data)}</script>`;
  // A function as the replacement: a `$` in the data must not be read as a replacement pattern.
  return html.replace("</head>", () => `${block}</head>`);
}

/** The web app's HTML carrying a page error, which the app shows instead of the view. */
export function withPageError(html: string, pageError: PageError): string {
  return withDataBlock(html, pageErrorElementId, pageError);
}

/** Answers with the web app's page, or with its error page when a page error is given. */
export async function sendWebPage(
  request: FastifyRequest,
  reply: FastifyReply,
  renderIndex: RenderIndex,
  pageError?: PageError,
): Promise<FastifyReply> {
  const html = await renderIndex(request.url);
  return reply
    .type("text/html; charset=utf-8")
    .header("cache-control", pageError ? "no-store" : "no-cache")
    .send(pageError ? withPageError(html, pageError) : html);
}
