import { logoutPageElementId, logoutPageSchema, type LogoutPage } from "../common/api/logout-page.ts";

/** The data the server gave a logout page it answered with (server/oidc/logout-pages.ts), if any. */
export function loadedLogoutPage(): LogoutPage | undefined {
  const element = document.getElementById(logoutPageElementId);
  if (element === null) return undefined;
  try {
    const parsed = logoutPageSchema.safeParse(JSON.parse(element.textContent));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
