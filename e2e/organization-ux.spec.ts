import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import {
  createOrganization,
  createOrganizationWithApp,
  createTemplate,
  invite,
  newName,
  openIdentity,
  signUp,
  status,
} from "./support/console.ts";

// An organization's admin at work: people picked by name, values copied for the app's configuration,
// a template added a second time only on purpose, and pages that fit a phone.

test.use({ locale: "en-US", permissions: ["clipboard-read", "clipboard-write"] });
// Each test walks through several pages of the console.
test.slow();

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/**
 * Why the page does not fit its width: horizontal overflow, or words broken across lines (a name
 * squeezed to one character per line). Words longer than 20 characters (IDs, URLs) may break.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      problems.push(`overflow: ${root.scrollWidth} > ${root.clientWidth}`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      const parent = node.parentElement;
      if (!parent || parent.closest("[hidden], dialog:not([open]), script, style")) continue;
      for (const match of text.matchAll(/(?<!\S)\S{2,20}(?!\S)/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) problems.push(`"${match[0]}" broken over ${lines.size} lines`);
      }
    }
    return problems;
  });
}

async function expectFits(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await expect.poll(() => layoutProblems(page)).toEqual([]);
}

async function inSlovenian(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem("vrata.locale", "sl"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "sl");
}

/** A second identity of the signed-in person, with names to find it by; returns its ID. */
async function createNamedIdentity(page: Page, username: string): Promise<string> {
  await page.goto("/i/create");
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Full name", { exact: true }).fill("Marta Kovač Zupančič");
  await page.getByLabel("E-mail address", { exact: true }).fill(`${username}@example.com`);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: username })).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

test("an admin picks people by name, copies the app's set-up and adds a template twice only on purpose", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  await signUp(page, newName("ux-admin"));
  const marta = newName("marta");
  await createNamedIdentity(page, marta);
  const templateName = newName("Template");
  const templatePage = `/a/${await createTemplate(page, templateName)}`;

  // The template's admins: Marta found by a part of her full name, with her other names beside it.
  const admins = page.getByRole("region", { name: "Admins" });
  const picker = admins.getByRole("combobox", { name: "Add an admin" });
  await picker.fill("kovač");
  const option = admins.getByRole("option", { name: new RegExp(marta) });
  await expect(option).toContainText("Marta Kovač Zupančič");
  await picker.press("ArrowDown");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await picker.press("Enter");
  await expect(admins.getByRole("button", { name: `Remove ${marta}` })).toBeVisible();
  await admins.getByRole("button", { name: "Save admins" }).click();
  await expect(status(page, "Admins updated successfully.")).toBeVisible();
  await page.goto(templatePage);
  await expect(admins.getByRole("list", { name: "Admins" })).toContainText(marta);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  const clientId = await createOrganizationWithApp(page, templateName, "https://app.example.com");
  const organizationPage = page.url();
  const application = page
    .getByRole("region", { name: "Added applications" })
    .getByRole("listitem")
    .filter({ hasText: templateName });
  await application.getByRole("button", { name: "Copy client ID" }).click();
  await expect(application.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await clipboard(page)).toBe(clientId);

  // Adding the template again asks first, naming the one the organization has.
  const available = page
    .getByRole("region", { name: "Available applications" })
    .getByRole("listitem")
    .filter({ hasText: templateName });
  await available.getByRole("button", { name: `Add: ${templateName}` }).click();
  const question = page.getByRole("dialog", { name: `Add ${templateName} once more?` });
  await expect(question).toContainText(`This organization already has ${templateName}.`);
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(available.getByLabel("uriBase")).toHaveCount(0);
  await available.getByRole("button", { name: `Add: ${templateName}` }).click();
  await question.getByRole("button", { name: "Add another" }).click();
  await available.getByLabel("uriBase").fill("https://second.example.com");
  await available.getByRole("button", { name: "Add", exact: true }).click();
  await expect(status(page, `${templateName} added.`)).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Added applications" }).getByRole("heading", { name: templateName }),
  ).toHaveCount(2);

  // The set-up page: issuer, client IDs and redirect URIs as the organization's values resolve them.
  await application
    .first()
    .getByRole("link", { name: /^Set-up details/ })
    .click();
  const setUp = page.getByRole("region", { name: "Set-up" });
  await expect(setUp).toContainText(clientId);
  await expect(setUp).toContainText("https://app.example.com/callback");
  await expect(setUp).toContainText("None (PKCE) (none)");
  await setUp.getByRole("button", { name: "Copy redirect URI" }).first().click();
  expect(await clipboard(page)).toBe("https://app.example.com/callback");
  await setUp.getByRole("button", { name: "Copy issuer URL" }).click();
  expect(await clipboard(page)).toBe(baseURL);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  for (const width of [390, 1280]) await expectFits(page, width);
  await inSlovenian(page);
  await expect(page.getByRole("region", { name: "Povezovanje aplikacije" })).toContainText(clientId);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.evaluate(() => localStorage.setItem("vrata.locale", "en"));

  // Marta is invited by name, and her acceptance adds her to the organization.
  await page.goto(organizationPage);
  const invitation = page.getByRole("region", { name: "Invite people" });
  await invitation.getByRole("combobox", { name: "Identity" }).fill("Zupančič");
  await invitation.getByRole("option", { name: new RegExp(marta) }).click();
  await invitation.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(status(page, "Invitation sent.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Pending invitations" })).toContainText(marta);
  await openIdentity(page, marta);
  await page.getByRole("region", { name: "Invitations" }).getByRole("button", { name: "Accept" }).click();
  await expect(status(page, "Invitation accepted.")).toBeVisible();

  await page.goto(organizationPage);
  const identities = page.getByRole("region", { name: "Added identities" });
  await expect(identities.getByRole("listitem")).toContainText("Marta Kovač Zupančič");
  for (const width of [320, 390, 1280]) await expectFits(page, width);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await inSlovenian(page);
  await expect(page.getByRole("region", { name: "Dodane identitete" })).toBeVisible();
  await expectFits(page, 390);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test("invitations are withdrawn and identities taken out of an organization only after confirming", async ({
  page,
}) => {
  await page.goto("/");
  const username = newName("ux-member");
  await signUp(page, username);
  const identityId = await openIdentity(page, username);
  const organizationPage = `/o/${await createOrganization(page, newName("Organization"))}`;

  await invite(page, identityId, "Member");
  const pending = page.getByRole("region", { name: "Pending invitations" });
  await pending.getByRole("button", { name: `Withdraw the invitation of ${username}` }).click();
  const withdrawal = page.getByRole("dialog", { name: `Withdraw the invitation of ${username}?` });
  await withdrawal.getByRole("button", { name: "Cancel" }).click();
  await expect(pending.getByRole("listitem")).toHaveCount(1);
  await pending.getByRole("button", { name: `Withdraw the invitation of ${username}` }).click();
  await withdrawal.getByRole("button", { name: "Withdraw" }).click();
  await expect(status(page, "Invitation withdrawn.")).toBeVisible();
  await expect(pending.getByText("There are no pending invitations.")).toBeVisible();

  await invite(page, identityId, "Member");
  await page.goto(`/i/${identityId}`);
  await page.getByRole("region", { name: "Invitations" }).getByRole("button", { name: "Accept" }).click();
  await expect(status(page, "Invitation accepted.")).toBeVisible();
  await page.goto(organizationPage);
  const identities = page.getByRole("region", { name: "Added identities" });
  await identities.getByRole("button", { name: "Disable" }).click();
  await page
    .getByRole("dialog", { name: `Disable ${username} in this organization?` })
    .getByRole("button", { name: "Disable" })
    .click();
  await expect(status(page, `${username} is disabled in this organization.`)).toBeVisible();
  await identities.getByRole("button", { name: "Remove" }).click();
  await page
    .getByRole("dialog", { name: `Take ${username} out of this organization?` })
    .getByRole("button", { name: "Take out" })
    .click();
  await expect(status(page, `${username} left this organization.`)).toBeVisible();
  await expect(identities.getByRole("listitem")).toHaveCount(0);
});
