import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { status } from "./support/console.ts";
import { dropRefusedRequests, newEmail, signUpByEmail } from "./support/flow.ts";
import { checkInBothSchemes } from "./support/layout-checks.ts";
import { waitForMail, type Mail } from "./support/mail.ts";

// The account page's password and e-mail addresses: a person who signed up with a code sets a
// password, adds a second address by the code e-mailed to it, makes it primary, removes the first one
// and removes the password again; in English and Slovenian, at a phone's and a desktop's width.

test.use({ locale: "en-US" });

/** The code of the e-mail that adds an address: the line of six digits. */
const addressCode = (mail: Mail) => /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1] ?? "";

async function openAccount(page: Page, language: "en" | "sl"): Promise<void> {
  await page.evaluate((chosen) => localStorage.setItem("vrata.locale", chosen), language);
  await page.goto("/account#emails");
  const title = language === "en" ? "E-mail addresses" : "E-poštni naslovi";
  await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
}

const region = (page: Page, name: string) => page.getByRole("region", { name });
const emailCard = (page: Page, email: string) =>
  region(page, "E-mail addresses").getByRole("listitem").filter({ hasText: email });

test("a person sets a password, adds and verifies an address, makes it primary and removes the rest", async ({
  page,
  pageErrors,
}) => {
  const first = await signUpByEmail(page, "methods");
  await openAccount(page, "en");
  const password = region(page, "Password");
  await expect(password).toContainText("No password yet");
  await expect(emailCard(page, first)).toContainText("Primary");
  await expect(page.getByRole("button", { name: `Remove the address ${first}` })).toBeDisabled();

  // A first password: the sign-in a moment ago is fresh enough.
  await password.getByRole("button", { name: "Set a password" }).click();
  const setForm = page.getByRole("form", { name: "Set a password" });
  await setForm.getByLabel("New password").fill("short");
  await setForm.getByRole("button", { name: "Set password" }).click();
  await expect(setForm.getByText("Use at least 8 characters.")).toBeVisible();
  await setForm.getByLabel("New password").fill(first);
  await setForm.getByRole("button", { name: "Set password" }).click();
  await expect(
    setForm
      .getByRole("alert")
      .filter({ hasText: "must not be your username or one of your e-mail addresses" }),
  ).toBeVisible();
  await setForm.getByLabel("New password").fill("four unrelated words here");
  await expect(setForm.getByRole("alert")).toHaveCount(0);
  await setForm.getByRole("button", { name: "Set password" }).click();
  await expect(status(page, "Your password is set. You can now sign in with it.")).toBeVisible();
  await expect(password).toContainText("Password is set");
  // The password signs in with an address, so the only address still stays.
  await expect(page.getByRole("button", { name: `Remove the address ${first}` })).toBeDisabled();
  await expect(emailCard(page, first)).toContainText("You need this address to sign in");

  // A second address, by the code e-mailed to it; a wrong code first.
  const second = newEmail("second");
  await page.getByLabel("New e-mail address").fill(second);
  await page.getByRole("button", { name: "Send a code" }).click();
  await expect(status(page, `We sent a code to ${second}.`)).toBeVisible();
  const pending = page.getByRole("form", { name: `Confirm ${second}` });
  await expect(emailCard(page, second)).toContainText("Waiting for the code");
  const code = addressCode(await waitForMail(second));
  await checkInBothSchemes(page, "account-methods-pending-en");
  await pending.getByLabel("Code").fill(code === "000000" ? "000001" : "000000");
  await pending.getByRole("button", { name: "Add address" }).click();
  await expect(pending.getByText("The code is not right.")).toBeVisible();
  await pending.getByLabel("Code").fill(code);
  await pending.getByRole("button", { name: "Add address" }).click();
  await expect(status(page, `${second} was added. You can now sign in with it.`)).toBeVisible();
  await expect(emailCard(page, second)).not.toContainText("Waiting");
  await expect(page.getByRole("button", { name: `Remove the address ${first}` })).toBeEnabled();

  await page.getByRole("button", { name: `Make ${second} the primary address` }).click();
  await expect(status(page, `${second} is now your primary address.`)).toBeVisible();
  await expect(emailCard(page, second)).toContainText("Primary");
  await expect(emailCard(page, first)).not.toContainText("Primary");

  await page.getByRole("button", { name: `Remove the address ${first}` }).click();
  const dialog = page.getByRole("dialog", { name: `Remove ${first}?` });
  await dialog.getByRole("button", { name: "Remove address" }).click();
  await expect(status(page, `${first} was removed.`)).toBeVisible();
  await expect(emailCard(page, first)).toHaveCount(0);

  // The password goes with the current one typed; a wrong one is told.
  await password.getByRole("button", { name: "Remove password" }).click();
  const removeForm = page.getByRole("form", { name: "Remove your password" });
  await removeForm.getByLabel("Current password").fill("not the password");
  await removeForm.getByRole("button", { name: "Remove password" }).click();
  await expect(removeForm.getByRole("alert").filter({ hasText: "not your current password" })).toBeVisible();
  await removeForm.getByLabel("Current password").fill("four unrelated words here");
  await removeForm.getByRole("button", { name: "Remove password" }).click();
  await expect(status(page, "Your password was removed.")).toBeVisible();
  await expect(password).toContainText("No password yet");
  // The last address is the only way in now.
  await expect(page.getByRole("button", { name: `Remove the address ${second}` })).toBeDisabled();
  await checkInBothSchemes(page, "account-methods-en");

  await page.goto("/activity?category=signInMethods");
  const entries = page.getByRole("main").getByRole("listitem");
  await expect(entries).toHaveCount(5);
  for (const text of [
    "Removed the password",
    `Removed the e-mail address ${first}`,
    `Made ${second} the primary e-mail address`,
    `Added the e-mail address ${second}`,
    "Set a password",
  ])
    await expect(entries.filter({ hasText: text })).toHaveCount(1);
  // The refusals above (a rule broken, a wrong code, a wrong password) are answers the page shows.
  dropRefusedRequests(pageErrors);
});

test("the password and e-mail sections in Slovenian", async ({ page }) => {
  const first = await signUpByEmail(page, "methods");
  await openAccount(page, "sl");
  await expect(region(page, "Geslo")).toContainText("Gesla še nimate");
  await expect(region(page, "E-poštni naslovi").getByRole("listitem")).toContainText([`${first}Glavni`]);
  const second = newEmail("drugi");
  await page.getByLabel("Nov e-poštni naslov").fill(second);
  await page.getByRole("button", { name: "Pošlji kodo" }).click();
  await expect(status(page, `Na ${second} smo poslali kodo.`)).toBeVisible();
  const mail = await waitForMail(second);
  expect(mail.subject).toContain("Vaša koda za dodajanje naslova");
  await region(page, "Geslo").getByRole("button", { name: "Nastavi geslo" }).click();
  await checkInBothSchemes(page, "account-methods-sl");
  await page
    .getByRole("form", { name: `Potrdite ${second}` })
    .getByLabel("Koda")
    .fill(addressCode(mail));
  await page.getByRole("button", { name: "Dodaj naslov" }).click();
  await expect(status(page, `Naslov ${second} je dodan.`)).toBeVisible();
});
