import type { Browser } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { addVirtualAuthenticator } from "./support/authenticator.ts";
import { createOrganizationWithApp, createTemplate, newName, signUp, status } from "./support/console.ts";
import { failureHeading, identityItem, namePasskeySignUp } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";
import { checkAtBothWidths } from "./support/layout-checks.ts";
import { inSlovenian, memberSignsIn } from "./support/members.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";

// An organization's admin chooses what its apps ask of people signing in, and sees in its users list
// which members have a second factor.

/** A person signs up through the organization's app with a passkey only, made by the browser's virtual authenticator. */
async function memberWithPasskey(browser: Browser, relyingParty: RelyingParty, username: string) {
  const labels = flowLabels.en;
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
  const person = await context.newPage();
  await addVirtualAuthenticator(person);
  await person.goto(`${relyingParty.base}/login`);
  await person.getByRole("button", { name: labels.passkeySignIn }).click();
  await expect(failureHeading(person, labels)).toBeFocused();
  await person.getByRole("button", { name: labels.passkeySignUp }).click();
  await namePasskeySignUp(person, labels, username);
  await identityItem(person, username).getByRole("button", { name: labels.select }).click();
  await person.getByRole("button", { name: labels.redirectNow }).click();
  await expect(person.getByRole("heading", { name: "Signed in" })).toBeVisible();
  await context.close();
}

test.use({ locale: "en-US" });

test("an admin sets the organization's sign-in policy and sees which members have a second factor", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const relyingParty = await startRelyingParty();
  try {
    await page.goto("/");
    await signUp(page, newName("owner"));
    const templateName = newName("Payroll");
    await createTemplate(page, templateName);
    const clientId = await createOrganizationWithApp(page, templateName, relyingParty.base);
    await relyingParty.setClient(baseURL ?? "", clientId);
    const organizationPath = new URL(page.url()).pathname;

    const withPassword = newName("mojca");
    const withPasskey = newName("nika");
    await memberSignsIn(browser, relyingParty, withPassword);
    await memberWithPasskey(browser, relyingParty, withPasskey);

    // The policy: any way of signing in until an admin chooses another, saved on its own.
    await page.goto(organizationPath);
    const policy = page.getByRole("region", { name: "Sign-in policy" });
    await expect(policy.getByRole("radio", { name: /Any way of signing in/ })).toBeChecked();
    await policy.getByRole("radio", { name: /A second factor required/ }).check();
    await policy.getByRole("button", { name: "Save sign-in policy" }).click();
    await expect(status(page, "Sign-in policy saved.")).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "A second factor required" })).toBeVisible();
    await page.reload();
    await expect(policy.getByRole("radio", { name: /A second factor required/ })).toBeChecked();
    await policy.getByRole("radio", { name: /A passkey required/ }).focus();
    await checkAtBothWidths(page, "sign-in-policy-en");

    // The organization's activity says what changed.
    await page
      .getByRole("navigation", { name: "Organization" })
      .getByRole("link", { name: "Activity" })
      .click();
    await expect(page.getByText("Changed the sign-in policy").first()).toBeVisible();
    await page.goBack();

    // The users list: a badge per second factor, or one saying there is none, and how many have one.
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Users" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
    const rows = page.getByRole("main").locator("ul > li");
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: withPasskey })).toContainText("Passkey");
    await expect(rows.filter({ hasText: withPasskey })).not.toContainText("No second factor");
    await expect(rows.filter({ hasText: withPassword })).toContainText("No second factor");
    await expect(page.getByText("1 of the 2 users shown has a second factor.")).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await checkAtBothWidths(page, "member-factors-en");

    // The same in Slovenian.
    await inSlovenian(page, organizationPath);
    const slovenianPolicy = page.getByRole("region", { name: "Pravilo prijave" });
    await expect(slovenianPolicy.getByRole("radio", { name: /Obvezen drugi dejavnik/ })).toBeChecked();
    await checkAtBothWidths(page, "sign-in-policy-sl");
    await page.goto(organizationPath.replace("/o/", "/o/users/"));
    await expect(page.getByText("Drugi dejavnik ima 1 od 2 prikazanih uporabnikov.")).toBeVisible();
    await expect(rows.filter({ hasText: withPasskey })).toContainText("Ključ za dostop");
    await checkAtBothWidths(page, "member-factors-sl");
  } finally {
    await relyingParty.close();
  }
});
