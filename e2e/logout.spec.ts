import type { Browser } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { addRelyingPartyApp, consoleCaller, newName, signUp } from "./support/console.ts";
import { passwordSignInAgainSteps, passwordSignUpSteps } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";
import { checkPage } from "./support/layout-checks.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";

// An app signs the person out through Vrata (RP-initiated logout): Vrata asks on a page of its own, in
// the person's language, ends the single sign-on session and sends them back to the app.

const languages = [
  {
    language: "en",
    locale: "en-US",
    labels: flowLabels.en,
    title: "Sign out?",
    asks: (app: string) => `${app} asks to sign you out.`,
    signOut: "Sign out",
    stay: "Stay signed in",
  },
  {
    language: "sl",
    locale: "sl-SI",
    labels: flowLabels.sl,
    title: "Se želite odjaviti?",
    asks: (app: string) => `Aplikacija ${app} vas želi odjaviti.`,
    signOut: "Odjavi me",
    stay: "Ne odjavi me",
  },
] as const;

/** An admin's organization with an app that is the relying party and lets it come back after logout. */
async function appOfRelyingParty(
  browser: Browser,
  baseURL: string,
  relyingParty: RelyingParty,
  name: string,
) {
  const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: "en-US" });
  try {
    const page = await context.newPage();
    await page.goto("/");
    await signUp(page, newName("admin"));
    await addRelyingPartyApp(await consoleCaller(page), baseURL, relyingParty, name);
  } finally {
    await context.close();
  }
}

for (const { language, locale, labels, title, asks, signOut, stay } of languages) {
  test(`an app signs the person out at once with its ID token, and after asking without it (${language})`, async ({
    browser,
    baseURL,
  }) => {
    const relyingParty = await startRelyingParty();
    const appName = newName("Logbook");
    try {
      await appOfRelyingParty(browser, baseURL ?? "", relyingParty, appName);
      const context = await browser.newContext({
        ignoreHTTPSErrors: true,
        locale,
        viewport: { width: 390, height: 844 },
      });
      const person = await context.newPage();
      const username = newName("leaving");
      await person.goto(`${relyingParty.base}/login`);
      await passwordSignUpSteps(person, username, labels);
      await expect(person.locator("#claims")).toBeVisible();

      // With its ID token of this session and no other app signed in, the app signs out at once.
      await person.getByRole("link", { name: "Sign out of the app" }).click();
      await expect(person.getByRole("heading", { name: "Signed out of the app" })).toBeVisible();
      await expect(person.locator("#state")).toHaveText("signed-out-state");
      await person.goto(`${relyingParty.base}/login`);
      await passwordSignInAgainSteps(person, username, labels);
      await expect(person.locator("#claims")).toBeVisible();

      // Without the hint anyone could have sent the browser: Vrata asks. "Stay signed in" goes back to
      // the app and leaves the person signed in to Vrata.
      await person.goto(`${relyingParty.base}/logout?hint=none`);
      await expect(person.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await person.getByRole("button", { name: stay }).click();
      await expect(person.getByRole("heading", { name: "Signed out of the app" })).toBeVisible();
      await expect(person.locator("#state")).toHaveText("signed-out-state");

      // Signing out for real: the page is looked at on a phone and a desktop, then confirmed.
      await person.goto(`${relyingParty.base}/logout?hint=none`);
      await expect(person.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(person.getByText(asks(appName))).toBeVisible();
      await checkPage(person, `logout-confirm-390-${language}`);
      await person.setViewportSize({ width: 1280, height: 800 });
      await checkPage(person, `logout-confirm-1280-${language}`);
      await person.getByRole("button", { name: signOut, exact: true }).click();
      await expect(person.getByRole("heading", { name: "Signed out of the app" })).toBeVisible();
      await expect(person.locator("#state")).toHaveText("signed-out-state");

      // Single sign-on has ended: the app's next sign-in asks who it is again.
      await person.goto(`${relyingParty.base}/login`);
      await expect(person.getByLabel(labels.identifier, { exact: true })).toBeVisible();
      await context.close();
    } finally {
      await relyingParty.close();
    }
  });
}
