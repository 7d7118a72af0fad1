import { expect } from "vitest";
import { logoutPageElementId, logoutPageSchema } from "../../src/common/api/logout-page.ts";
import type { FlowDriver } from "./flow-driver.ts";

/** The browser opens a logout URL and gets the confirmation page: its data. */
export async function confirmationPage(driver: FlowDriver, logoutUrl: URL) {
  const response = await driver.fetch(logoutUrl.href, { headers: { accept: "text/html" } });
  expect(response.status).toBe(200);
  const html = await response.text();
  const block = new RegExp(`<script type="application/json" id="${logoutPageElementId}">(.*?)</script>`).exec(
    html,
  )?.[1];
  const page = logoutPageSchema.parse(JSON.parse(block ?? "null"));
  if (page.page !== "confirm") throw new Error("not the confirmation page");
  return { page, policy: response.headers.get("content-security-policy") ?? "" };
}

/** The person confirms the logout (everywhere, unless told) and the browser is sent on: where to. */
export async function confirmLogout(
  driver: FlowDriver,
  xsrf: string,
  signOutEverywhere = true,
): Promise<URL> {
  const response = await driver.fetch(`${driver.base}/auth/oidc/logout/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ xsrf, ...(signOutEverywhere ? { logout: "yes" } : {}) }).toString(),
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location") ?? "", driver.base);
}
