import type { Browser, Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { createOrganizationWithApp, createTemplate, newName, signUp, status } from "./support/console.ts";
import { inSlovenian, memberSignsIn } from "./support/members.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";

// An organization's admin runs it day to day: finds a member among its users, reads what happened in
// it, and disables it, which stops sign-in to its apps with a message saying why.

/** The organization's sign-in page as a person in that language meets it. */
async function signInPage(browser: Browser, relyingParty: RelyingParty, locale: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale });
  const person = await context.newPage();
  await person.goto(`${relyingParty.base}/login`);
  return person;
}

/** The entries of an activity list (the breadcrumbs are a list too). */
const activityEntries = (page: Page) =>
  page
    .getByRole("main")
    .locator("ol > li")
    .filter({ has: page.locator("time") });

test.use({ locale: "en-US" });

test("an admin finds a member, reads the organization's activity and disables it", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const relyingParty = await startRelyingParty();
  try {
    await page.goto("/");
    await signUp(page, newName("owner"));
    const templateName = newName("Timesheets");
    await createTemplate(page, templateName);
    const clientId = await createOrganizationWithApp(page, templateName, relyingParty.base);
    await relyingParty.setClient(baseURL ?? "", clientId);
    const organizationPath = new URL(page.url()).pathname;

    const member = newName("mojca");
    await memberSignsIn(browser, relyingParty, member);
    await memberSignsIn(browser, relyingParty, newName("other"));

    // The users list finds the member by name.
    await page.goto(organizationPath);
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Users" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
    await expect(page.getByRole("main").locator("ul > li")).toHaveCount(2);
    await page.getByLabel("Search by name or e-mail").fill(member.slice(0, 12));
    const rows = page.getByRole("main").locator("ul > li");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(member);
    await expect(rows.first()).toContainText("active");
    await expect(rows.first()).toContainText(templateName);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The member's page as the organization sees them.
    await rows.first().getByRole("link", { name: member, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: member })).toBeVisible();
    await page.goBack();

    // The member's activity: their sign-in, and their joining.
    await rows
      .first()
      .getByRole("link", { name: `View activity: ${member}` })
      .click();
    await expect(page.getByText("Showing the activity of one member only.")).toBeVisible();
    const entries = activityEntries(page);
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText(`Signed in to ${templateName}`);
    await expect(entries.first()).toContainText(member);

    // Everybody's activity has the admin's changes too.
    await page.getByRole("link", { name: "Show everybody's activity" }).click();
    await expect(page.getByText(`Added the application ${templateName}`)).toBeVisible();
    await expect(page.getByText(/^Created the organization/)).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Disabling the organization: its app's sign-in says why it stops.
    await page.goto(organizationPath);
    const statusSection = page.getByRole("region", { name: "Status" });
    const organizationName = await page
      .getByRole("region", { name: "Organization" })
      .getByLabel("Name", { exact: true })
      .inputValue();
    await statusSection.getByRole("button", { name: "Disable" }).click();
    // The question names what it disables.
    await page
      .getByRole("dialog", { name: `Disable ${organizationName}?` })
      .getByRole("button", { name: "Disable" })
      .click();
    await expect(status(page, "Organization updated successfully.")).toBeVisible();
    await expect(statusSection.getByRole("button", { name: "Activate" })).toBeVisible();

    const refused = await signInPage(browser, relyingParty, "en-US");
    await expect(refused.getByRole("heading", { name: "This organization is closed" })).toBeVisible();
    await refused.context().close();

    await page.goto(organizationPath.replace("/o/", "/o/activity/"));
    await expect(activityEntries(page).first()).toContainText("Disabled the organization");

    // The main path in Slovenian.
    await inSlovenian(page, organizationPath.replace("/o/", "/o/users/"));
    await expect(page.getByRole("heading", { level: 1, name: "Uporabniki" })).toBeVisible();
    await page.getByLabel("Iščite po imenu ali e-pošti").fill(member.slice(0, 12));
    await expect(page.getByRole("main").locator("ul > li")).toHaveCount(1);
    // Its labels agree with "uporabnik", the noun of the list.
    await expect(page.getByRole("main").locator("ul > li").first()).toContainText("aktiven");
    await expect(page.getByRole("main").locator("ul > li").first()).not.toContainText("aktivna");
    await page.goto(organizationPath.replace("/o/", "/o/activity/"));
    await expect(page.getByRole("heading", { level: 1, name: "Dejavnost" })).toBeVisible();
    await expect(page.getByText("Onemogočena organizacija", { exact: false }).first()).toBeVisible();
    const refusedSl = await signInPage(browser, relyingParty, "sl-SI");
    await expect(refusedSl.getByRole("heading", { name: "Ta organizacija je zaprta" })).toBeVisible();
    await refusedSl.context().close();
  } finally {
    await relyingParty.close();
  }
});
