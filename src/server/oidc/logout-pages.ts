import type { Client, Configuration, KoaContextWithOIDC } from "oidc-provider";
import { logoutPageElementId, type LogoutPage } from "../../common/api/logout-page.ts";
import { requestedLocale } from "../http/locale.ts";
import { withDataBlock } from "../http/web-page.ts";
import { applicationOf } from "../organizations/applications.ts";
import type { Database } from "../store/database.ts";
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
