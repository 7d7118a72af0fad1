import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { addVirtualAuthenticator, strayPasskey } from "./support/authenticator.ts";
import { accountMenu } from "./support/console.ts";
import {
  dropRefusedRequests,
  failureHeading,
  identityItem,
  onlyPasskeyHandle,
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
      await signUpWithPasskey(page, labels);
      const handle = await onlyPasskeyHandle(authenticator);
      // The new account's first identity is named by its handle, as the passkey is on the device.
      await expect(identityItem(page, handle)).toBeVisible();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await selectAndReturn(page, labels, handle);

      // Signed out, the next sign-in: the browser offers the passkey in the field's autofill list, and
      // the virtual authenticator picks it at once, as the person would.
      await page.getByRole("navigation").getByRole("button", { name: labels.accountMenu }).first().click();
      await page.getByRole("button", { name: labels.signOut }).click();
      await expect(page.getByRole("button", { name: labels.signIn }).first()).toBeVisible();
      await startFlow(page, labels.signIn);
      await expect(page.getByText(labels.signedIn)).toBeVisible();
      await expect(identityItem(page, handle)).toBeVisible();
      const [passkey] = await authenticator.passkeys();
      expect(passkey?.signCount).toBe(2);
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
    await signUpWithPasskey(page, labels);
    const handle = await onlyPasskeyHandle(first);
    const [passkey] = await first.passkeys();
    await first.remove();

    // The page opens with no authenticator, so autofill has nothing to offer; then the device is there.
    await context.clearCookies();
    await startFlow(page);
    const device = await addVirtualAuthenticator(page);
    if (passkey) await device.add(passkey);
    await page.getByRole("button", { name: labels.passkeySignIn }).click();
    await expect(page.getByText(labels.signedIn)).toBeVisible();
    await expect(identityItem(page, handle)).toBeVisible();
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
    await expect(page.getByRole("heading", { name: "Signing up with a passkey did not work" })).toBeFocused();
    await expect(page.getByText("Each passkey sign-up creates a new account.")).toBeVisible();
    await authenticator.verifies(true);
    await page.getByRole("button", { name: "Try signing up again" }).click();
    await expect(page.getByText(labels.signedUp)).toBeVisible();
    const handle = await onlyPasskeyHandle(authenticator);
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
    await expect(identityItem(page, handle)).toBeVisible();
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
    await expect(page.getByText(labels.signedUp)).toBeVisible();
    await selectAndReturn(page, labels, await onlyPasskeyHandle(authenticator));
    await expect(accountMenu(page)).toBeVisible();
    dropRefusedRequests(pageErrors);
  });
});
