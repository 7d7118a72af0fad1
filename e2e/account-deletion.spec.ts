import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { accountMenu, newName, password, signUp } from "./support/console.ts";
import { settle } from "./support/layout-checks.ts";

// Deleting the account (spec, the account page): the person asks, typing their username, sees the
// pending deletion with its date, and keeps the account when they sign in again.

const shots = process.env.VRATA_E2E_SHOTS;

/**
 * Screenshots of the page as it is, at a phone's and a desktop's width, light and dark, into the
 * folder `VRATA_E2E_SHOTS` names; none without it.
 */
async function shoot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await settle(page);
      await page.screenshot({ path: `${shots}/${name}-${width}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
}

const dangerZone = (page: Page) => page.getByRole("region", { name: "Delete account" });

test("a person schedules their account's deletion, sees it pending and keeps it by signing in", async ({
  page,
}) => {
  const username = newName("leaving");
  await page.goto("/");
  await signUp(page, username);
  await page.goto("/account");
  await expect(dangerZone(page)).toContainText("deleted 7 days after you ask");
  await dangerZone(page).scrollIntoViewIfNeeded();
  await shoot(page, "account-en");

  await dangerZone(page).getByRole("button", { name: "Delete account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  const field = dialog.getByLabel(`Type ${username} to confirm`);
  await field.fill("not me");
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(dialog).toContainText(`Type ${username} exactly as shown.`);
  await field.fill(username);
  await shoot(page, "dialog-en");
  await dialog.getByRole("button", { name: "Delete account" }).click();

  const pending = dangerZone(page).getByRole("heading", { name: /^Your account will be deleted on / });
  await expect(pending).toBeVisible();
  await expect(dangerZone(page).getByRole("button", { name: "Keep my account" })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await shoot(page, "pending-en");

  await page.evaluate(() => localStorage.setItem("vrata.locale", "sl"));
  await page.reload();
  await expect(page.getByRole("region", { name: "Izbris računa" })).toContainText("Vaš račun čaka na izbris");
  await shoot(page, "pending-sl");
  await page.evaluate(() => localStorage.setItem("vrata.locale", "en"));
  await page.reload();

  // Signed out and in again: the sign-in stops to offer keeping the account.
  await accountMenu(page).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign in or sign up" }).first().click();
  await page.getByLabel("Username or e-mail address", { exact: true }).fill(username);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Password or passphrase", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: /^This account will be deleted on / })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await shoot(page, "card-en");
  await page.evaluate(() => localStorage.setItem("vrata.locale", "sl"));
  await page.reload();
  await expect(page.getByRole("heading", { name: /^Ta račun čaka na izbris/ })).toBeVisible();
  await shoot(page, "card-sl");
  await page.evaluate(() => localStorage.setItem("vrata.locale", "en"));
  await page.reload();

  // Signed out from the account page, the sign-in was the account page's own: no identity to choose.
  await page.getByRole("button", { name: "Keep my account and continue" }).click();
  await expect(accountMenu(page)).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
  await expect(dangerZone(page).getByRole("button", { name: "Delete account…" })).toBeVisible();
  await expect(dangerZone(page)).not.toContainText("will be deleted on");
});
