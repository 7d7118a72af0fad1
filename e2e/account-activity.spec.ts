import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { newName, signUp, status } from "./support/console.ts";
import { checkInBothSchemes } from "./support/layout-checks.ts";

// The account page's security activity and "Your data": the person's sign-ins listed newest first,
// "This wasn't me" asking first, signing out every other browser and leading to the password, and the
// download of everything Vrata holds about the account; in English and Slovenian, light and dark.

test.use({ locale: "en-US" });

const titles = {
  en: { security: "Security activity", data: "Your data" },
  sl: { security: "Varnostna dejavnost", data: "Vaši podatki" },
};

async function openAccount(page: Page, language: "en" | "sl"): Promise<void> {
  await page.evaluate((chosen) => localStorage.setItem("vrata.locale", chosen), language);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 2, name: titles[language].security })).toBeVisible();
}

const security = (page: Page, language: "en" | "sl") =>
  page.getByRole("region", { name: titles[language].security });

test("a person reads their security activity, says a sign-in was not theirs and downloads their data", async ({
  page,
}) => {
  test.slow();
  const username = newName("activity");
  await page.goto("/");
  await signUp(page, username);

  await openAccount(page, "en");
  const section = security(page, "en");
  await expect(section.getByRole("listitem").first()).toContainText("Signed in to");
  await expect(section.getByRole("listitem").first()).toContainText("Password");
  await expect(section.getByRole("link", { name: "All activity" })).toHaveAttribute("href", "/activity");
  await checkInBothSchemes(page, "account-activity-en");

  // "This wasn't me" asks first; cancelling changes nothing.
  const endOthers: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/account/sessions/endOthers")) endOthers.push(request.method());
  });
  await section.getByRole("button", { name: "This wasn't me" }).click();
  const dialog = page.getByRole("dialog", { name: "Secure your account?" });
  await expect(dialog).toContainText("Every other browser where you are signed in is signed out at once");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect(endOthers).toEqual([]);

  // Confirmed: every other browser is signed out (account-sessions.spec.ts shows them go), and the
  // page leads to changing the password.
  await section.getByRole("button", { name: "This wasn't me" }).click();
  const answer = page.waitForResponse((response) =>
    response.url().endsWith("/api/account/sessions/endOthers"),
  );
  await dialog.getByRole("button", { name: "Sign out everywhere else" }).click();
  expect((await answer).status()).toBe(200);
  await expect(status(page, "You were signed out everywhere else. Now change your password.")).toBeVisible();
  expect(endOthers).toEqual(["POST"]);
  await expect(page).toHaveURL(/\/account#password$/);

  // The download: a JSON file of the day with every part, and no secret.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download your data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^vrata-account-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile(await download.path(), "utf8");
  const exported = JSON.parse(text) as {
    format: string;
    version: number;
    credentials: { usernames: { username: string }[]; password: { set: boolean } };
    activity: { type: string }[];
  };
  expect(exported).toMatchObject({ format: "vrata-account-export", version: 1 });
  expect(exported.credentials.usernames.map((entry) => entry.username)).toEqual([username.toLowerCase()]);
  expect(exported.credentials.password.set).toBe(true);
  expect(exported.activity.map((entry) => entry.type)).toContain("signIn");
  expect(text).not.toContain('"hash"');
  await expect(status(page, "Your data was downloaded.")).toBeVisible();

  // In Slovenian, with an entry of a type this page does not know yet, which it names in general words.
  await page.route("**/api/account/activity?*", async (route) => {
    const response = await route.fetch();
    const page = (await response.json()) as { items: Record<string, unknown>[] };
    const [first] = page.items;
    const unknown = { ...first, id: "unknownType000000000000", type: "somethingNew" };
    await route.fulfill({ response, json: { ...page, items: [unknown, ...page.items] } });
  });
  await openAccount(page, "sl");
  const slovenian = security(page, "sl");
  await expect(slovenian.getByRole("listitem").first()).toContainText(
    "V vašem računu se je nekaj spremenilo",
  );
  await expect(slovenian.getByRole("button", { name: "Tega ne prepoznam" })).toBeVisible();
  await expect(page.getByRole("region", { name: titles.sl.data })).toContainText("Prenesi svoje podatke");
  await checkInBothSchemes(page, "account-activity-sl");
});
