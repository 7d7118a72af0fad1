import type Provider from "oidc-provider";
import type { Configuration } from "oidc-provider";

// The engine writes a few pages itself: the error page for a request it cannot send back to the app
// (an unknown client or redirect URI), and the auto-submitting form of `response_mode=form_post`.

/**
 * Nothing loads and nothing runs, unless the engine adds its own form_post script's hash to
 * `script-src` (it does so to a policy it finds on the response; `'none'` then no longer counts).
 * `form-action` stays open: that form posts to the app, wherever it is.
 */
export const enginePagePolicy =
  "default-src 'none'; script-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Shown when a request cannot be sent back to the app, e.g. an unknown client or redirect URI. */
export const renderErrorPage: NonNullable<Configuration["renderError"]> = (ctx, out) => {
  ctx.type = "html";
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vrata</title></head><body><main><h1>${escapeHtml(out.error)}</h1><p>${escapeHtml(out.error_description ?? "")}</p></main></body></html>`;
};

/** Every answer of the engine carries the policy before the engine writes it. */
export function protectEnginePages(provider: Provider): void {
  provider.use(async (ctx, next) => {
    ctx.set("content-security-policy", enginePagePolicy);
    await next();
  });
}
