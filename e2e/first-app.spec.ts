import type { Locator, Page } from "@playwright/test";
import { dropFailedLoads, expect, test } from "./fixtures.ts";
import { newName, signUp } from "./support/console.ts";
import { flowLabels } from "./support/labels.ts";
import { checkAtBothWidths, checkInBothSchemes } from "./support/layout-checks.ts";
import { startRelyingParty } from "./support/relyingParty.ts";

// The guided path from nothing to a real relying party's first ID token: a new person signs up,
// connects a web app with a server from the home page, copies its client ID and secret from the app's
// page, and the app signs them in. Every click and every field filled on the way is counted.

/** What a person did with the pages: clicks (choices in a list included) and fields filled. */
interface Effort {
  clicks: number;
  fields: number;
}

/**
 * Counts the clicks and fills of every locator while `run` runs: the helpers' steps as much as this
 * file's own.
 */
async function counting(page: Page, run: (effort: Effort) => Promise<void>): Promise<Effort> {
  const effort: Effort = { clicks: 0, fields: 0 };
  const locator = Object.getPrototypeOf(page.locator("body")) as Record<string, unknown>;
  const originals = { click: locator.click, selectOption: locator.selectOption, fill: locator.fill };
  const counted = (original: unknown, kind: keyof Effort) =>
    function (this: Locator, ...args: unknown[]) {
      effort[kind] += 1;
      return (original as (...passed: unknown[]) => Promise<unknown>).apply(this, args);
    };
  locator.click = counted(originals.click, "clicks");
  locator.selectOption = counted(originals.selectOption, "clicks");
  locator.fill = counted(originals.fill, "fields");
  try {
    await run(effort);
  } finally {
    Object.assign(locator, originals);
  }
  return effort;
}

/** The value a copy button put on the clipboard. */
async function copied(page: Page, button: Locator): Promise<string> {
  await button.click();
  await expect(button.locator("xpath=..").getByRole("status")).toHaveText("Copied");
  return page.evaluate(() => navigator.clipboard.readText());
}

test("a new person connects a web app through the guided path, and the app gets its first ID token", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const relyingParty = await startRelyingParty();
  const username = newName("first");
  const appName = newName("Notes");
  let appPage = "";
  try {
    await page.goto("/");
    const started = Date.now();
    const effort = await counting(page, async () => {
      await signUp(page, username);

      const card = page.getByRole("region", { name: "Connect your first app" });
      await card.getByRole("link", { name: "Get started" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Connect an app" })).toBeVisible();
      // A web app with a server is what the form starts with.
      await expect(page.getByRole("radio", { name: /^Web app with a server/ })).toBeChecked();
      await page.getByLabel("App name").fill(appName);
      await page.getByLabel("Where it runs").fill(relyingParty.base);
      await expect(
        page.getByText(`People come back to ${relyingParty.base}/callback after signing in`),
      ).toBeVisible();
      await page.getByRole("button", { name: "Connect app" }).click();

      // The app's page, with the secret shown once and what the app is configured with.
      await expect(page.getByRole("heading", { level: 1, name: appName })).toBeVisible();
      appPage = page.url();
      const clientId = await copied(page, page.getByRole("button", { name: "Copy client ID" }));
      const secret = await copied(page, page.getByRole("button", { name: "Copy secret" }));
      expect(secret).toMatch(/^vcs-/);
      await expect(page.getByText(`${relyingParty.base}/callback`, { exact: true })).toBeVisible();
      await relyingParty.setClient(baseURL ?? "", clientId, secret);

      // The person opens the app: signed in to Vrata already, they only pick the identity it gets.
      await page.goto(`${relyingParty.base}/login`);
      await page
        .getByRole("listitem")
        .filter({ hasText: username })
        .getByRole("button", { name: "Select" })
        .click();
      await page.getByRole("button", { name: flowLabels.en.redirectNow }).click();
      const claims = JSON.parse((await page.locator("#claims").textContent()) ?? "{}") as Record<
        string,
        unknown
      >;
      expect(claims).toMatchObject({ aud: clientId, iss: baseURL });
      expect(claims.sub).toEqual(expect.any(String));
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `Guided path to the first ID token: ${effort.clicks} clicks, ${effort.fields} fields filled, ${seconds.toFixed(1)} s`,
    );
    // Sign-up (5 clicks, 2 fields), the guided form (2 clicks, 2 fields), two copies, the app's sign-in (2).
    expect(effort.clicks).toBeLessThanOrEqual(11);
    expect(effort.fields).toBeLessThanOrEqual(4);

    // The secret was shown once: neither coming back to the app's page in the console nor loading it
    // again shows it.
    await page.goto(appPage);
    await expect(page.getByRole("button", { name: "Copy client ID" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Copy secret" })).toHaveCount(0);
  } finally {
    await relyingParty.close();
  }
});

test("the home card, the form and the connected app's page, at both widths in English and Slovenian", async ({
  page,
  pageErrors,
}) => {
  test.slow();
  await page.goto("/");
  await signUp(page, newName("looks"));
  for (const language of ["en", "sl"] as const) {
    await page.goto("/");
    await page.getByLabel(/^(Language|Jezik)$/).selectOption(language);
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    await expect(page.getByRole("region", { name: /first app|prvo aplikacijo/ })).toBeVisible();
    await checkInBothSchemes(page, `home-first-app-${language}`);

    await page.getByRole("link", { name: language === "en" ? "Get started" : "Začnite" }).click();
    await expect(page.locator("form input[name=name]")).toBeVisible();
    await checkInBothSchemes(page, `connect-app-${language}`);
  }
  // Refused input shows at its field, in the page's language (Slovenian by now).
  await page.locator("form input[name=name]").fill("Oglasna deska");
  await page.locator("form input[name=address]").fill("localhost:3000");
  await page.locator("form button[type=submit]").click();
  await expect(page.getByText("Navedite naslov, na katerem teče aplikacija", { exact: false })).toBeVisible();
  dropFailedLoads(pageErrors, 400);
  await checkAtBothWidths(page, "connect-app-refused-sl");

  await page.locator("form input[name=address]").fill("http://localhost:5173");
  await page.locator("form button[type=submit]").click();
  await expect(page.getByRole("heading", { level: 1, name: "Oglasna deska" })).toBeVisible();
  await checkInBothSchemes(page, "connected-app-sl");
  // Once shown, the secret is gone when the person comes back to the page.
  await expect(page.getByRole("button", { name: "Kopiraj skrivnost" })).toBeVisible();
  await page.getByRole("navigation", { name: "Drobtinice" }).getByRole("link").last().click();
  await expect(page).toHaveURL(/\/o\/[^/]+$/);
  // The organization's page has replaced the app's (the address changes before a lazy page is drawn).
  await expect(page.getByRole("heading", { level: 2, name: "Povezovanje aplikacije" })).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole("heading", { level: 2, name: "Povezovanje aplikacije" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Kopiraj ID odjemalca" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Kopiraj skrivnost" })).toHaveCount(0);

  // With an organization of their own, the home page offers another app in a line, and the form
  // adds it to that organization unless they choose a new one.
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Povežite aplikacijo" })).toBeVisible();
  await expect(page.getByRole("region", { name: /prvo aplikacijo/ })).toHaveCount(0);
  await checkAtBothWidths(page, "home-connect-app-sl");
  await page.getByRole("link", { name: "Povežite aplikacijo" }).click();
  await expect(page.getByLabel("Organizacija")).toHaveValue(/.+/);
  await page.getByRole("radio", { name: /^Mobilna, namizna ali ukazna aplikacija/ }).check();
  await expect(page.getByText("http://127.0.0.1/callback", { exact: false })).toBeVisible();
  await checkInBothSchemes(page, "connect-app-more-sl");
});
