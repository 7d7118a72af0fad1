import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import {
  accountMenu,
  addRelyingPartyApp,
  consoleCaller,
  newName,
  passwordSteps,
  signUp,
  status,
} from "./support/console.ts";
import { identityItem } from "./support/flow.ts";
import { checkInBothSchemes } from "./support/layout-checks.ts";
import { startRelyingParty } from "./support/relyingParty.ts";

// The account page's browsers and connected apps: a person signed in in two browsers signs the other
// one out from the first, and disconnects an app, which then asks again which identity it gets; the
// page is looked at in English and Slovenian, light and dark, on a phone and a desktop.

test.use({ locale: "en-US" });

const texts = {
  en: { sessions: "Where you're signed in", apps: "Connected apps", current: "This browser" },
  sl: { sessions: "Kje ste prijavljeni", apps: "Povezane aplikacije", current: "Ta brskalnik" },
} as const;

const region = (page: Page, name: string) => page.getByRole("region", { name });

async function openAccount(page: Page, language: "en" | "sl"): Promise<void> {
  await page.evaluate((chosen) => localStorage.setItem("vrata.locale", chosen), language);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 2, name: texts[language].sessions })).toBeVisible();
}

test("a person signs another browser out and disconnects an app from the account page", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two browsers, an app's sign-ins and screenshots in two languages, schemes and widths.
  test.slow();
  const relyingParty = await startRelyingParty();
  try {
    const username = newName("wanderer");
    await page.goto("/");
    await signUp(page, username);
    const appName = newName("Herbarium");
    const organizationName = await addRelyingPartyApp(
      await consoleCaller(page),
      baseURL ?? "",
      relyingParty,
      appName,
    );
    // Signed in to Vrata already: the app asks only which identity it gets.
    await page.goto(`${relyingParty.base}/login`);
    await identityItem(page, username).getByRole("button", { name: "Select" }).click();
    await page.getByRole("button", { name: "Redirect now" }).click();
    await expect(page.locator("#claims")).toBeVisible();

    // The same person in another browser.
    const elsewhere = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: "en-US" });
    const other = await elsewhere.newPage();
    await other.goto("/");
    await other.getByRole("button", { name: "Sign in or sign up" }).first().click();
    await passwordSteps(other, username);
    await expect(accountMenu(other)).toBeVisible();

    await openAccount(page, "en");
    const sessions = region(page, texts.en.sessions);
    await expect(sessions.getByRole("listitem")).toHaveCount(2);
    await expect(sessions.getByRole("listitem").filter({ hasText: texts.en.current })).toHaveCount(1);
    await expect(sessions.getByRole("listitem").first()).toContainText("Chrome on Linux");
    const apps = region(page, texts.en.apps);
    const app = apps.getByRole("listitem").filter({ hasText: appName });
    await expect(app).toContainText(`By ${organizationName}`);
    await expect(app).toContainText(`As ${username}`);
    // The relying party asks for `openid` alone.
    await expect(app).toContainText("Gets only an identifier of your identity.");
    await expect(apps.getByRole("listitem").filter({ hasText: "This console" })).toContainText(
      "To disconnect this console, sign out.",
    );
    await checkInBothSchemes(page, "account-sessions-en");
    await openAccount(page, "sl");
    await expect(
      region(page, texts.sl.apps).getByRole("listitem").filter({ hasText: appName }),
    ).toContainText(`Identiteta: ${username}`);
    await checkInBothSchemes(page, "account-sessions-sl");
    await openAccount(page, "en");

    // The other browser signed out: asked first, then gone from the list, and signed out there.
    await sessions.getByRole("button", { name: "Sign out Chrome on Linux" }).click();
    const confirm = page.getByRole("dialog", { name: "Sign out Chrome on Linux?" });
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      // The dialog as the screen shows it: a full-page picture draws the page under it anew.
      const file = test.info().outputPath(`account-sessions-confirm-en-${width}.png`);
      await page.screenshot({ path: file, animations: "disabled" });
      await test
        .info()
        .attach(`account-sessions-confirm-en-${width}`, { path: file, contentType: "image/png" });
    }
    await confirm.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(status(page, "Chrome on Linux was signed out.")).toBeVisible();
    await expect(sessions.getByRole("listitem")).toHaveCount(1);
    await expect(sessions.getByRole("button", { name: "Sign out everywhere else" })).toHaveCount(0);
    await other.reload();
    await expect(other.getByRole("button", { name: "Sign in or sign up" }).first()).toBeVisible();
    await expect(accountMenu(other)).toHaveCount(0);
    await elsewhere.close();

    // The app disconnected: gone from the list, and its next sign-in asks again.
    await app.getByRole("button", { name: `Disconnect ${appName}` }).click();
    const disconnect = page.getByRole("dialog", { name: `Disconnect ${appName}?` });
    await disconnect.getByRole("button", { name: "Disconnect", exact: true }).click();
    await expect(status(page, `${appName} was disconnected.`)).toBeVisible();
    await expect(app).toHaveCount(0);
    await page.goto(`${relyingParty.base}/login`);
    await expect(identityItem(page, username).getByRole("button", { name: "Select" })).toBeVisible();
  } finally {
    await relyingParty.close();
  }
});
