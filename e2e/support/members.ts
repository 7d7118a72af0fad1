import type { Browser, Page } from "@playwright/test";
import { expect } from "../fixtures.ts";
import { passwordSteps } from "./console.ts";
import type { RelyingParty } from "./relyingParty.ts";

// People who join an organization by signing in to its app, each in a browser of their own, and the
// console read in Slovenian.

/** A person signs up through the organization's app in a browser of their own, with a password. */
export async function memberSignsIn(browser: Browser, relyingParty: RelyingParty, username: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
  const person = await context.newPage();
  await person.goto(`${relyingParty.base}/login`);
  await passwordSteps(person, username);
  await expect(person.getByRole("heading", { name: "Signed in" })).toBeVisible();
  await context.close();
}

/** Opens the path with the console's language set to Slovenian. */
export async function inSlovenian(page: Page, path: string) {
  await page.evaluate(() => localStorage.setItem("vrata.locale", "sl"));
  await page.goto(path);
}
