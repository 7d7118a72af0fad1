import type { FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import type { Client, Configuration } from "oidc-provider";
import { idPattern } from "../../common/ids.ts";
import type { PageError } from "../../common/api/page-error.ts";
import { requestedLocale } from "../http/locale.ts";
import { withPageError, type RenderIndex } from "../http/web-page.ts";
import { applicationOf } from "../organizations/applications.ts";
import { isClientOfDisabledOrganization } from "../store/clients.ts";
import type { Database } from "../store/database.ts";
import { isStoreUnavailable } from "../store/errors.ts";
import { ownerOf } from "./client-extras.ts";

// The engine writes two kinds of page: the auto-submitting form of `response_mode=form_post`, which
// it makes itself under a policy that lets nothing else load or run, and the page for a request it
// cannot send back to the app (an unknown client or redirect URI, no parameters, a fault of its own),
// which is the web app's error page, translated and with a way back.

/**
 * Nothing loads and nothing runs, unless the engine adds its own form_post script's hash to
 * `script-src` (it does so to a policy it finds on the response; `'none'` then no longer counts).
 * `form-action` stays open: that form posts to the app, wherever it is.
 */
export const enginePagePolicy =
  "default-src 'none'; script-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** What the engine's error page needs of the Fastify request the engine answers. */
export interface HandedOverRequest {
  request: FastifyRequest;
  /** The security policy of the web app's pages, which the error page is one of. */
  pagePolicy: string;
  renderIndex: RenderIndex;
}

// Keyed by the raw request the engine gets, which is all the engine passes on to its hooks.
const handedOver = new WeakMap<object, HandedOverRequest>();

/** Records the Fastify side of a request the OIDC plugin hands over to the engine. */
export function recordHandOver(raw: object, request: HandedOverRequest): void {
  handedOver.set(raw, request);
}

/** The Fastify side of a request the engine is answering, if it was handed over. */
export function handedOverRequest(raw: object): HandedOverRequest | undefined {
  return handedOver.get(raw);
}

/**
 * The app to go back to from an error: a client the engine found belongs to an organization's
 * application, whose homepage its admins set. Without a known client there is no app that can safely
 * be named, and the way back is the home page.
 */
async function appToReturnTo(db: Database, client: Client | undefined): Promise<PageError["app"]> {
  if (!client) return undefined;
  const { organizationId, applicationId } = ownerOf(client);
  try {
    const application = await applicationOf(db, organizationId, applicationId);
    return application.homepage ? { name: application.name, homepage: application.homepage } : undefined;
  } catch {
    // The store failing may be what brought the person here; the page then leads home.
    return undefined;
  }
}

/**
 * The engine's code for the refusal, except that a client it does not know because its organization
 * is disabled is said to be that: the person learns that the organization is closed, not that the
 * app is broken.
 */
async function refusal(db: Database, error: string, clientId: unknown): Promise<string> {
  if (error !== "invalid_client" || typeof clientId !== "string" || !idPattern.test(clientId)) return error;
  try {
    return (await isClientOfDisabledOrganization(db, clientId)) ? "organizationDisabled" : error;
  } catch {
    return error;
  }
}

/**
 * The engine's error page: the web app's HTML with the status the engine chose and the error as a
 * page error, which the app shows translated. Only stable values go into it (the engine's error code,
 * the request ID of a fault, the app's stored name and homepage), never the request's own text.
 */
export function engineErrorPage(db: Database): NonNullable<Configuration["renderError"]> {
  return async (ctx, out, error) => {
    const handOver = handedOverRequest(ctx.req);
    if (!handOver) throw new Error("the engine answered a request the OIDC plugin did not hand over");
    const locale = requestedLocale(ctx.query["ui_locales"]);
    // Without the store there is no app to name: the page says to try again.
    const storeAway = isStoreUnavailable(error);
    const app = storeAway ? undefined : await appToReturnTo(db, ctx.oidc.client);
    const pageError: PageError = {
      error: storeAway ? "storeUnavailable" : await refusal(db, out.error, ctx.query["client_id"]),
      ...(ctx.status >= 500 ? { requestId: handOver.request.id } : {}),
      ...(locale ? { locale } : {}),
      ...(app ? { app } : {}),
    };
    const html = await handOver.renderIndex(ctx.originalUrl);
    ctx.set("content-security-policy", handOver.pagePolicy);
    ctx.set("cache-control", "no-store");
    ctx.type = "html";
    ctx.body = withPageError(html, pageError);
  };
}

/** Every answer of the engine carries the policy before the engine writes it. */
export function protectEnginePages(provider: Provider): void {
  provider.use(async (ctx, next) => {
    ctx.set("content-security-policy", enginePagePolicy);
    await next();
  });
}
