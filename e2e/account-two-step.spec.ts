import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { newName, signUp, status } from "./support/console.ts";
import { dropRefusedRequests } from "./support/flow.ts";
import { checkInBothSchemes } from "./support/layout-checks.ts";

// Two-step verification on the account page: an authenticator app set up with the code an
// independent TOTP implementation (oathtool) computes from the key the page shows, recovery codes
// shown once and made anew, and the app removed; in English and Slovenian, light and dark.

test.use({ locale: "en-US" });

const run = promisify(execFile);

/** The code an authenticator app shows now for the key. */
async function appCode(key: string): Promise<string> {
  const { stdout } = await run("oathtool", ["--totp", "-b", key]);
  return stdout.trim();
}

async function openAccount(page: Page, language: "en" | "sl"): Promise<void> {
  await page.evaluate((chosen) => localStorage.setItem("vrata.locale", chosen), language);
  await page.goto("/account");
  const title = language === "en" ? "Two-step verification" : "Preverjanje v dveh korakih";
  await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
}

const twoStep = (page: Page, language: "en" | "sl") =>
  page.getByRole("region", {
    name: language === "en" ? "Two-step verification" : "Preverjanje v dveh korakih",
  });

/** The recovery codes the page shows, once. */
async function shownCodes(page: Page, title: string): Promise<string[]> {
  const list = page.getByRole("list", { name: title });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  return list.getByRole("listitem").allTextContents();
}

test("a person sets up an authenticator app, saves recovery codes, makes new ones and removes it", async ({
  page,
  pageErrors,
}) => {
  // Screenshots of four states in two languages, schemes and widths, each checked for accessibility.
  test.slow();
  await page.goto("/");
  await signUp(page, newName("twostep"));

  await openAccount(page, "en");
  await expect(twoStep(page, "en")).toContainText("Two-step verification is off.");
  await expect(page.getByRole("region", { name: "Passkeys" })).toContainText(
    "A passkey also serves as a second step",
  );
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  await expect(page.getByLabel("Code from the app")).toHaveAttribute("autocomplete", "one-time-code");
  await expect(page.getByLabel("Code from the app")).toHaveAttribute("inputmode", "numeric");
  await checkInBothSchemes(page, "account-totp-set-up-en");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("button", { name: "Set up an authenticator app" })).toBeFocused();

  // In Slovenian: a wrong code is refused in place, the right one sets the app up.
  await openAccount(page, "sl");
  await page.getByRole("button", { name: "Nastavite aplikacijo za preverjanje" }).click();
  const key = page.getByLabel("Ključ za nastavitev");
  await expect(key).toHaveText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = ((await key.textContent()) ?? "").replace(/\s/g, "");
  await checkInBothSchemes(page, "account-totp-set-up-sl");
  const right = await appCode(secret);
  const wrong = right === "000000" ? "111111" : "000000";
  await page.getByLabel("Koda iz aplikacije").fill(wrong);
  await page.getByRole("button", { name: "Potrdi" }).click();
  await expect(page.getByText("Koda ni pravilna.")).toBeVisible();
  await expect(page.getByLabel("Koda iz aplikacije")).toBeFocused();
  await page.getByLabel("Koda iz aplikacije").fill(right);
  await page.getByRole("button", { name: "Potrdi" }).click();
  const first = await shownCodes(page, "Vaše obnovitvene kode");
  for (const code of first) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(page.getByRole("heading", { name: "Vaše obnovitvene kode" })).toBeFocused();
  await checkInBothSchemes(page, "account-recovery-codes-sl");
  await page.getByRole("button", { name: "Kode so shranjene" }).click();
  await expect(twoStep(page, "sl")).toContainText("Preverjanje v dveh korakih je vklopljeno.");
  await expect(twoStep(page, "sl")).toContainText("Ostalo je še 10 kod");
  await checkInBothSchemes(page, "account-two-step-on-sl");

  // In English: the app is on; new codes replace the first ones, shown once, and download as text.
  await openAccount(page, "en");
  const section = twoStep(page, "en");
  await expect(section).toContainText("Two-step verification is on.");
  await expect(section).toContainText("10 codes left");
  await checkInBothSchemes(page, "account-two-step-on-en");
  await section.getByRole("button", { name: "Make new codes" }).click();
  const makeDialog = page.getByRole("dialog", { name: "Make new recovery codes?" });
  await expect(makeDialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await makeDialog.getByRole("button", { name: "Make new codes" }).click();
  const second = await shownCodes(page, "Your recovery codes");
  expect(second.filter((code) => first.includes(code))).toEqual([]);
  await checkInBothSchemes(page, "account-recovery-codes-en");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download .txt" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("recovery-codes.txt");
  const file = await readFile(await download.path(), "utf8");
  for (const code of second) expect(file).toContain(code);
  await page.getByRole("button", { name: "I have saved these codes" }).click();
  await expect(status(page, "Keep your recovery codes safe.")).toBeVisible();
  await expect(section.getByRole("list", { name: "Your recovery codes" })).toHaveCount(0);

  // Removed after a question that names it; the codes go with it.
  await section.getByRole("button", { name: "Remove the authenticator app" }).click();
  const removeDialog = page.getByRole("dialog", { name: "Remove the authenticator app?" });
  await removeDialog.getByRole("button", { name: "Remove authenticator app" }).click();
  await expect(status(page, "The authenticator app and your recovery codes were removed.")).toBeVisible();
  await expect(section).toContainText("Two-step verification is off.");
  await expect(section).not.toContainText("codes left");

  // The activity says each step in words.
  await page.goto("/activity");
  for (const said of [
    "Removed the authenticator app",
    "Made new recovery codes",
    "Set up an authenticator app",
  ])
    await expect(page.getByText(said, { exact: true })).toBeVisible();
  // The wrong code's refusal is the browser's only error: it was meant.
  dropRefusedRequests(pageErrors);
});
