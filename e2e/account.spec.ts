import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { addVirtualAuthenticator } from "./support/authenticator.ts";
import { accountMenu, newName, signUp, status } from "./support/console.ts";
import {
  dropRefusedRequests,
  selectIdentityAndReturn,
  signUpByEmail,
  signUpWithPasskey,
} from "./support/flow.ts";

// The account page (spec §2, Account): a person sees how they sign in and manages their passkeys,
// made by the browser's virtual platform authenticator.

const passkeyCard = (page: Page, name: string) =>
  page.getByRole("region", { name: "Passkeys" }).getByRole("listitem").filter({ hasText: name });
const addButton = (page: Page) => page.getByRole("button", { name: "Add a passkey" });

async function removePasskey(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: `Remove the passkey ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Remove the passkey “${name}”?` });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Remove passkey" }).click();
  await expect(status(page, `The passkey “${name}” was removed.`)).toBeVisible();
  await expect(passkeyCard(page, name)).toHaveCount(0);
}

test("a person adds, renames and removes passkeys, and their activity tells so", async ({
  page,
  pageErrors,
}) => {
  const email = await signUpByEmail(page);
  const authenticator = await addVirtualAuthenticator(page);

  await accountMenu(page).click();
  await page.getByRole("link", { name: "Account and sign-in methods" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page).toHaveTitle(/^Account · /);
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  const emails = page.getByRole("region", { name: "E-mail addresses" });
  await expect(emails.getByRole("listitem")).toHaveText([new RegExp(`^${email}Primary`)]);

  // Cancelled by the person (verification fails): a calm word, and Add has the focus again.
  await authenticator.verifies(false);
  await addButton(page).click();
  await expect(status(page, "No passkey was added. You can try again whenever you are ready.")).toBeVisible();
  await expect(addButton(page)).toBeFocused();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await authenticator.verifies(true);

  await addButton(page).click();
  await expect(status(page, "The passkey “Passkey” was added.")).toBeVisible();
  await expect(passkeyCard(page, "Passkey")).toContainText("Not used to sign in yet");
  expect(await authenticator.passkeys()).toHaveLength(1);

  // The same authenticator makes no second passkey for the account.
  await addButton(page).click();
  await expect(page.getByRole("alert")).toContainText("This passkey is already saved.");
  // A second device does.
  await authenticator.remove();
  const second = await addVirtualAuthenticator(page);
  await addButton(page).click();
  await expect(status(page, "The passkey “Passkey 2” was added.")).toBeVisible();
  expect(await second.passkeys()).toHaveLength(1);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // Renamed in place: a name another passkey has is refused under the field.
  await page.getByRole("button", { name: "Rename the passkey Passkey 2" }).click();
  const field = page.getByLabel("Name of the passkey");
  await expect(field).toBeFocused();
  await field.fill("Passkey");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(field).toHaveAccessibleDescription(
    "Another of your passkeys has this name. Choose a different one.",
  );
  await expect(field).toBeFocused();
  await field.fill("Work laptop");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(status(page, "The passkey was renamed to “Work laptop”.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Rename the passkey Work laptop" })).toBeFocused();

  // Cancel keeps the name.
  await page.getByRole("button", { name: "Rename the passkey Work laptop" }).click();
  await page.getByLabel("Name of the passkey").fill("Something else");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(passkeyCard(page, "Work laptop")).toBeVisible();

  // With the e-mail address still a way to sign in, every passkey can go.
  await removePasskey(page, "Passkey");
  await removePasskey(page, "Work laptop");
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await expect(emails).toContainText(email);

  await page.goto("/activity?category=signInMethods");
  const entries = page.getByRole("list").filter({ hasText: "passkey" }).getByRole("listitem");
  await expect(entries.first()).toBeVisible();
  for (const text of [
    "Removed the passkey “Work laptop”",
    "Removed the passkey “Passkey”",
    "Renamed the passkey “Passkey 2” to “Work laptop”",
    "Added the passkey “Passkey 2”",
    "Added the passkey “Passkey”",
  ])
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  dropRefusedRequests(pageErrors);
  const rest = pageErrors.filter((error) => !error.includes("status of 409"));
  pageErrors.splice(0, pageErrors.length, ...rest);
});

test("an account that signs in with passkeys only keeps its last one", async ({ page }) => {
  const authenticator = await addVirtualAuthenticator(page);
  await selectIdentityAndReturn(page, await signUpWithPasskey(page));
  await accountMenu(page).click();
  await page.getByRole("link", { name: "Account and sign-in methods" }).click();

  const only = page.getByRole("button", { name: /^Remove the passkey / });
  await expect(only).toBeDisabled();
  await expect(only).toHaveAccessibleDescription(
    "This is your only way to sign in, so it cannot be removed. Add another passkey first.",
  );
  await expect(page.getByRole("region", { name: "E-mail addresses" })).toContainText(
    "You have no e-mail addresses yet.",
  );

  // A second passkey, from another device: either may go now, but not both.
  await authenticator.remove();
  await addVirtualAuthenticator(page);
  await addButton(page).click();
  await expect(status(page, "was added.")).toBeVisible();
  const removeButtons = page.getByRole("button", { name: /^Remove the passkey / });
  await expect(removeButtons).toHaveCount(2);
  for (const button of await removeButtons.all()) await expect(button).toBeEnabled();
  await removeButtons.first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove passkey" }).click();
  await expect(removeButtons).toHaveCount(1);
  await expect(removeButtons).toBeDisabled();
});

test("the account page in Slovenian adds and removes a passkey", async ({ page }) => {
  await page.goto("/");
  await signUp(page, newName("racun"));
  await addVirtualAuthenticator(page);
  await page.evaluate(() => localStorage.setItem("vrata.locale", "sl"));
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Račun" })).toBeVisible();
  await expect(page.getByText("Ključev za dostop še nimate.")).toBeVisible();
  const password = page.getByRole("region", { name: "Geslo" });
  await expect(password).toContainText(/uporabniškim imenom racun-/);
  await expect(password).toContainText("Geslo je nastavljeno");
  await page.getByRole("button", { name: "Dodaj ključ za dostop" }).click();
  await expect(status(page, "Ključ za dostop »Ključ za dostop« je dodan.")).toBeVisible();
  await expect(page.getByText("Za prijavo še ni bil uporabljen")).toBeVisible();
  await page.getByRole("button", { name: "Odstrani ključ za dostop Ključ za dostop" }).click();
  await page
    .getByRole("dialog", { name: "Želite odstraniti ključ za dostop »Ključ za dostop«?" })
    .getByRole("button", { name: "Odstrani ključ za dostop" })
    .click();
  await expect(status(page, "Ključ za dostop »Ključ za dostop« je odstranjen.")).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
