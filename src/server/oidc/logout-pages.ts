import type { Client, Configuration, KoaContextWithOIDC } from "oidc-provider";
import { logoutPageElementId, type LogoutPage } from "../../common/api/logout-page.ts";
import { requestedLocale } from "../http/locale.ts";
import { withDataBlock } from "../http/web-page.ts";
import { applicationOf } from "../organizations/applications.ts";
import type { Database } from "../store/database.ts";
import { appSubjectFor } from "./accounts.ts";
import { ownerOf } from "./client-extras.ts";
import { handedOverRequest } from "./engine-pages.ts";

// The two pages of RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) are the web app's:
// the engine decides when each is shown and Vrata gives it the data to show, translated.

type LogoutFeature = NonNullable<NonNullable<Configuration["features"]>["rpInitiatedLogout"]>;

async function appOf(db: Database, client: Client | undefined) {
  if (!client) return undefined;
  const { organizationId, applicationId } = ownerOf(client);
  const application = await applicationOf(db, organizationId, applicationId);
  return application.name ? application : undefined;
}

/**
 * The confirmation form posts to Vrata and is answered with a redirect to the app's registered
 * post-logout URI, which browsers check against `form-action` too: that origin is added for this page.
 */
function policyAllowing(policy: string, postLogoutRedirectUri: unknown): string {
  if (typeof postLogoutRedirectUri !== "string" || !URL.canParse(postLogoutRedirectUri)) return policy;
  const origin = new URL(postLogoutRedirectUri).origin;
  return policy.replace(/form-action 'self'/, () => `form-action 'self' ${origin}`);
}

async function sendPage(ctx: KoaContextWithOIDC, page: LogoutPage, policy = (value: string) => value) {
  const handOver = handedOverRequest(ctx.req);
  if (!handOver) throw new Error("the engine answered a request the OIDC plugin did not hand over");
  const html = await handOver.renderIndex(ctx.originalUrl);
  ctx.set("content-security-policy", policy(handOver.pagePolicy));
  ctx.set("cache-control", "no-store");
  ctx.type = "html";
  ctx.body = withDataBlock(html, logoutPageElementId, page);
}

/**
 * Whether the logout request comes from an app of this very session (its ID token names the person as
 * the app knows them, signed in when this session signed in) and the session signs in to no other app
 * (an app's other clients are the same app): then there is nobody to ask about.
 */
async function onlyAppOfSession(db: Database, ctx: KoaContextWithOIDC): Promise<boolean> {
  const { client, session } = ctx.oidc;
  const hint = ctx.oidc.entities.IdTokenHint?.payload;
  if (!client || !session?.accountId || !hint) return false;
  if (hint["auth_time"] !== session.authTime()) return false;
  const subject = await appSubjectFor(db)(ctx, session.accountId, client).catch(() => undefined);
  if (hint.sub !== subject) return false;
  const { applicationId } = ownerOf(client);
  for (const clientId of Object.keys(session.authorizations ?? {})) {
    const other = clientId === client.clientId ? client : await ctx.oidc.provider.Client.find(clientId);
    if (other && ownerOf(other).applicationId !== applicationId) return false;
  }
  return true;
}

export function logoutPages(db: Database): Pick<LogoutFeature, "logoutSource" | "postLogoutSuccessSource"> {
  return {
    logoutSource: async (ctx) => {
      const app = await appOf(db, ctx.oidc.client);
      const locale = requestedLocale(ctx.oidc.params?.["ui_locales"]);
      const secret = ctx.oidc.session?.state?.["secret"];
      if (typeof secret !== "string") throw new Error("the engine gave the logout page no token");
      await sendPage(
        ctx,
        {
          page: "confirm",
          xsrf: secret,
          ...(app ? { app: { name: app.name } } : {}),
          ...((await onlyAppOfSession(db, ctx)) ? { atOnce: true as const } : {}),
          ...(locale ? { locale } : {}),
        },
        (policy) => policyAllowing(policy, ctx.oidc.params?.["post_logout_redirect_uri"]),
      );
    },
    postLogoutSuccessSource: async (ctx) => {
      const app = await appOf(db, ctx.oidc.client);
      await sendPage(ctx, {
        page: "signedOut",
        ...(app ? { app: { name: app.name, ...(app.homepage ? { homepage: app.homepage } : {}) } } : {}),
      });
    },
  };
}
