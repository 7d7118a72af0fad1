import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { accountMenu, newName, password, signUp } from "./support/console.ts";
import { identityItem } from "./support/flow.ts";

// The account page is the person's, not an identity's: it signs in with its own client, which asks
// for no identity, and opens silently for a browser that is signed in already.

test.use({ locale: "en-US" });

const shots = process.env.VRATA_E2E_SHOTS;

const sectionsNav = (page: Page) => page.getByRole("navigation", { name: "Account sections" });

/** Screenshots of the page as it is, at a phone's and a laptop's width, when a folder is given. */
async function screenshots(page: Page, name: string): Promise<void> {
  if (!shots) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(sectionsNav(page)).toBeVisible();
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a new person signs up from the account page and lands on it with no identity question", async ({
  page,
}) => {
  const username = newName("entry");
  await page.goto("/account");
  // Not signed in: the silent attempt comes back, and the page offers to sign in.
  await expect(page.getByText("Sign in or sign up to manage how you sign in.")).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "Sign in or sign up" }).click();
  await expect(page).toHaveURL(/\/auth\/[^/?#]+$/);
  await page.getByLabel("Username or e-mail address", { exact: true }).fill(username);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Password or passphrase", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Submit" }).click();

  // Straight back to the account page: no identity is chosen for it.
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Two-step verification" })).toBeVisible();
  const nav = sectionsNav(page);
  await expect(nav.getByRole("link", { name: "Passkeys" })).toBeVisible();
  await nav.getByRole("link", { name: "Password" }).click();
  await expect(page).toHaveURL(/\/account#password$/);
  await expect(page.getByRole("region", { name: "Password" })).toContainText(username);

  await accountMenu(page).click();
  await expect(page.getByText("Signed in to your account")).toBeVisible();
  await page.keyboard.press("Escape");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshots(page, "new-en");
  await page.evaluate(() => localStorage.setItem("vrata.locale", "sl"));
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Račun" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Razdelki računa" })).toBeVisible();
  if (shots) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/new-sl-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await page.evaluate(() => localStorage.setItem("vrata.locale", "en"));
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();

  // The console asks for an identity, as it always does.
  await page.getByRole("link", { name: "Go to the console" }).click();
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Sign in or sign up" })
    .click();
  await identityItem(page, username).getByRole("button", { name: "Select" }).click();
  await page.getByRole("button", { name: "Redirect now" }).click();
  await expect(accountMenu(page)).toBeVisible();
});

test("a signed-in console user opens the account page silently, and the console's menu leads there", async ({
  page,
}) => {
  const username = newName("silent");
  await page.goto("/");
  await signUp(page, username);

  // A fresh load: the account page's own client signs in from the single sign-on session, no page.
  await page.goto("/account");
  await expect(page.getByRole("region", { name: "Passkeys" })).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Choose an identity" })).toHaveCount(0);

  await page.getByRole("link", { name: "Go to the console" }).click();
  await expect(page).toHaveURL(/\/$/);
  // The identity chosen for the console before answers at once.
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Sign in or sign up" })
    .click();
  await accountMenu(page).click();
  await page.getByRole("link", { name: "Account and sign-in methods" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(sectionsNav(page)).toBeVisible();
  await screenshots(page, "console-en");
});
