import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { addVirtualAuthenticator, strayPasskey } from "./support/authenticator.ts";
import { accountMenu } from "./support/console.ts";
import {
  dropRefusedRequests,
  failureHeading,
  identityItem,
  namePasskeySignUp,
  signUpWithPasskey,
  startFlow,
} from "./support/flow.ts";
import { flowLabels, type FlowLabels } from "./support/labels.ts";

// Signing in and up with a passkey, with Chromium's virtual platform authenticator standing in for the
// person's device (it answers at once, and verifies them unless told otherwise).

async function selectAndReturn(page: Page, labels: FlowLabels, identity: string): Promise<void> {
  await identityItem(page, identity).getByRole("button", { name: labels.select }).click();
  await page.getByRole("button", { name: labels.redirectNow }).click();
  await expect(
    page.getByRole("navigation").getByRole("button", { name: labels.accountMenu }).first(),
  ).toBeVisible();
}

for (const [language, locale] of [
  ["en", "en-US"],
  ["sl", "sl-SI"],
] as const) {
  const labels = flowLabels[language];

  test.describe(`passkeys in ${language}`, () => {
    test.use({ locale });

    test("a person signs up with a passkey only, signs out, and later signs in by picking it in the identifier field", async ({
      page,
    }) => {
      const authenticator = await addVirtualAuthenticator(page);
      // The new account's first identity is named as the person typed before the ceremony.
      const username = await signUpWithPasskey(page, labels);
      await expect(identityItem(page, username)).toBeVisible();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await selectAndReturn(page, labels, username);

      // Signed out, the next sign-in: the browser offers the passkey in the field's autofill list, and
      // the virtual authenticator picks it at once, as the person would.
      await page.getByRole("navigation").getByRole("button", { name: labels.accountMenu }).first().click();
      await page.getByRole("button", { name: labels.signOut }).click();
      await expect(page.getByRole("button", { name: labels.signIn }).first()).toBeVisible();
      await startFlow(page, labels.signIn);
      await expect(page.getByText(labels.signedIn)).toBeVisible();
      await expect(identityItem(page, username)).toBeVisible();
      const [passkey] = await authenticator.passkeys();
      expect(passkey?.signCount).toBe(2);
    });
  });
}

/** What the account page calls a passkey of an unknown make made today, in each language. */
const defaultPasskeyName = {
  en: /Passkey, \d{1,2} [A-Z][a-z]{2} \d{4}/,
  sl: /Ključ za dostop, \d{1,2}\. [a-zč]{3}\.? \d{4}/,
};
const namingTexts = {
  en: {
    missing: "Enter a username or your name.",
    short: "Username should be at least 3 characters.",
    email: "Invalid e-mail address.",
    account: "Account and sign-in methods",
  },
  sl: {
    missing: "Vpišite uporabniško ime ali svoje ime.",
    short: "Uporabniško ime mora imeti vsaj 3 znake.",
    email: "Neveljaven e-poštni naslov.",
    account: "Račun in načini prijave",
  },
};

for (const [language, locale] of [
  ["en", "en-US"],
  ["sl", "sl-SI"],
] as const) {
  const labels = flowLabels[language];
  const texts = namingTexts[language];

  test.describe(`naming a passkey sign-up in ${language}`, () => {
    test.use({ locale });

    test("the sign-up asks for a username or a name first, shows each mistake at its field, and names the passkey by the day", async ({
      page,
      pageErrors,
    }) => {
      await addVirtualAuthenticator(page);
      await startFlow(page, labels.signIn);
      await page.getByRole("button", { name: labels.passkeySignIn }).click();
      await expect(failureHeading(page, labels)).toBeFocused();
      await page.getByRole("button", { name: labels.passkeySignUp }).click();
      const name = page.getByLabel(labels.passkeyName, { exact: true });
      const email = page.getByLabel(labels.passkeyEmail, { exact: true });
      await expect(name).toBeFocused();

      await page.getByRole("button", { name: labels.passkeyCreate }).click();
      await expect(name).toHaveAccessibleDescription(new RegExp(texts.missing));
      await expect(name).toBeFocused();
      await name.fill("ab");
      await page.getByRole("button", { name: labels.passkeyCreate }).click();
      await expect(name).toHaveAccessibleDescription(new RegExp(texts.short));
      await name.fill("Ana Novak");
      await email.fill("ana@");
      await page.getByRole("button", { name: labels.passkeyCreate }).click();
      await expect(email).toHaveAccessibleDescription(new RegExp(texts.email));
      await expect(email).toBeFocused();
      await expect(name).not.toHaveAttribute("aria-invalid");
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/vrata-passkey-name-${width}-${language}.png`, fullPage: true });
      }

      const address = `ana-${Date.now()}@example.com`;
      await email.fill(address);
      await page.getByRole("button", { name: labels.passkeyCreate }).click();
      await expect(page.getByText(labels.signedUp)).toBeVisible();
      await selectAndReturn(page, labels, address);
      await page.getByRole("navigation").getByRole("button", { name: labels.accountMenu }).first().click();
      await page.getByRole("link", { name: texts.account }).click();
      await expect(page.getByRole("main")).toContainText(defaultPasskeyName[language]);
      dropRefusedRequests(pageErrors);
    });
  });
}

test.describe("passkey sign-in and its failure screen", () => {
  test.use({ locale: "en-US" });
  const labels = flowLabels.en;

  test("the identifier field asks the browser for passkeys, and typing a username still works", async ({
    page,
  }) => {
    await startFlow(page);
    const field = page.getByLabel(labels.identifier, { exact: true });
    await expect(field).toHaveAttribute("autocomplete", "username webauthn");
    await field.fill("someone-typing");
    await page.getByRole("button", { name: labels.next }).click();
    await expect(page.getByLabel(labels.password, { exact: true })).toBeFocused();
  });

  test("the passkey button signs in with a passkey the device holds", async ({ page, context }) => {
    const first = await addVirtualAuthenticator(page);
    const username = await signUpWithPasskey(page, labels);
    const [passkey] = await first.passkeys();
    await first.remove();

    // The page opens with no authenticator, so autofill has nothing to offer; then the device is there.
    await context.clearCookies();
    await startFlow(page);
    const device = await addVirtualAuthenticator(page);
    if (passkey) await device.add(passkey);
    await page.getByRole("button", { name: labels.passkeySignIn }).click();
    await expect(page.getByText(labels.signedIn)).toBeVisible();
    await expect(identityItem(page, username)).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Steps" })).toContainText("Passkey");
  });

  test("after a failed sign-in the screen offers sign-up, another sign-in, and after a failed sign-up another sign-up", async ({
    page,
    context,
  }) => {
    const authenticator = await addVirtualAuthenticator(page);
    await startFlow(page);
    await page.getByRole("button", { name: labels.passkeySignIn }).click();
    await expect(failureHeading(page, labels)).toBeFocused();
    await expect(page.getByRole("alert")).toContainText("No passkey was used");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The person does not verify (wrong fingerprint): the sign-up fails, and trying again warns that
    // each sign-up is a new account.
    await authenticator.verifies(false);
    await page.getByRole("button", { name: labels.passkeySignUp }).click();
    await namePasskeySignUp(page, labels, "Ana Novak");
    await expect(page.getByRole("heading", { name: "Signing up with a passkey did not work" })).toBeFocused();
    await expect(page.getByText("Each passkey sign-up creates a new account.")).toBeVisible();
    // Trying again keeps what was typed.
    await authenticator.verifies(true);
    await page.getByRole("button", { name: "Try signing up again" }).click();
    await expect(page.getByLabel(labels.passkeyName, { exact: true })).toHaveValue("Ana Novak");
    await page.getByRole("button", { name: labels.passkeyCreate }).click();
    await expect(page.getByText(labels.signedUp)).toBeVisible();
    const [passkey] = await authenticator.passkeys();

    // Another visit, with the passkey not on the device yet: the sign-in fails, the person cancels a
    // second one that waits for a touch, then brings the passkey and tries again.
    if (passkey) await authenticator.forget(passkey.credentialId);
    await context.clearCookies();
    await startFlow(page);
    await page.getByRole("button", { name: labels.passkeySignIn }).click();
    await expect(failureHeading(page, labels)).toBeFocused();
    await authenticator.responds(false);
    await page.getByRole("button", { name: "Try signing in again" }).click();
    await expect(page.getByRole("status")).toContainText("Use your passkey");
    await page.getByRole("button", { name: labels.cancel }).click();
    await expect(failureHeading(page, labels)).toBeFocused();
    await authenticator.responds(true);
    if (passkey) await authenticator.add(passkey);
    await page.getByRole("button", { name: "Try signing in again" }).click();
    await expect(page.getByText(labels.signedIn)).toBeVisible();
    await expect(identityItem(page, "Ana Novak")).toBeVisible();
  });

  test("a passkey the server does not know leads to sign-up, and the browser is told to forget it", async ({
    page,
    baseURL,
    pageErrors,
  }) => {
    const authenticator = await addVirtualAuthenticator(page);
    const stray = strayPasskey(new URL(baseURL ?? "").hostname);
    await authenticator.add(stray);
    // Autofill offers the device's passkey; the server does not know it.
    await startFlow(page);
    await expect(failureHeading(page, labels)).toBeFocused();
    await expect(page.getByRole("alert")).toContainText("This passkey does not belong to any account here.");
    await expect
      .poll(async () => (await authenticator.passkeys()).map(({ credentialId }) => credentialId))
      .not.toContain(stray.credentialId);

    await page.getByRole("button", { name: labels.passkeySignUp }).click();
    await namePasskeySignUp(page, labels, "stray-owner");
    await expect(page.getByText(labels.signedUp)).toBeVisible();
    await selectAndReturn(page, labels, "stray-owner");
    await expect(accountMenu(page)).toBeVisible();
    dropRefusedRequests(pageErrors);
  });
});
