import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import {
  createOrganizationWithApp,
  createTemplate,
  invite,
  newName,
  openIdentity,
  passwordSteps,
  saveTemplate,
  signUp,
  status,
} from "./support/console.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";
import { identityItem } from "./support/flow.ts";

// Application templates and organizations in the console, against the real server: a template with a
// uriBase variable and a public client, an organization that adds it, and the client ID it gets.

/** Signs in through the relying party's /login with the password; returns the ID token's claims it shows. */
async function signInThrough(
  person: Page,
  relyingParty: RelyingParty,
  username: string,
): Promise<Record<string, unknown>> {
  await person.goto(`${relyingParty.base}/login`);
  await passwordSteps(person, username);
  return claimsAtApp(person);
}

/** The ID token's claims the relying party shows once the person is back there signed in. */
async function claimsAtApp(person: Page): Promise<Record<string, unknown>> {
  await expect(person.getByRole("heading", { name: "Signed in" })).toBeVisible();
  return JSON.parse((await person.locator("#claims").textContent()) ?? "{}") as Record<string, unknown>;
}

test.describe("application templates and organizations", () => {
  test.use({ locale: "en-US" });

  test("signed out, the lists offer to sign in and there is no Create", async ({ page }) => {
    await page.goto("/a");
    await expect(page.getByRole("heading", { level: 1, name: "Application templates" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create application template" })).toHaveCount(0);
    await page.goto("/o");
    await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create organization" })).toHaveCount(0);
  });

  test("a template added to an organization gets a client ID", async ({ page }) => {
    await page.goto("/");
    const username = newName("org");
    await signUp(page, username);
    const templateName = newName("Template");
    await createTemplate(page, templateName);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The homepage and a backend client, saved together.
    await page.getByLabel("Homepage template").fill("{uriBase}/");
    await page.getByRole("button", { name: "Add backend client" }).click();
    const backend = page.getByRole("group", { name: "Backend client 1" });
    await expect(backend.getByRole("radio", { name: /Client secret in the request body/ })).toBeChecked();
    await saveTemplate(page);

    await createOrganizationWithApp(page, templateName, "https://app.example.com");
    const application = page
      .getByRole("region", { name: "Added applications" })
      .getByRole("listitem")
      .filter({ hasText: templateName });
    await expect(application.getByText("active", { exact: true })).toBeVisible();
    await expect(application.getByLabel("uriBase")).toHaveValue("https://app.example.com");

    // The backend client's secret is shown once, right after it was made, and again after a rotation.
    const secret = application.getByLabel(/^Client secret of /);
    await expect(secret).toHaveAccessibleDescription(/will not be shown again/);
    const first = await secret.inputValue();
    expect(first).not.toBe("");
    await application.getByRole("button", { name: /^Rotate secret: / }).click();
    await page
      .getByRole("dialog", { name: `Rotate the secret of ${templateName}?` })
      .getByRole("button", { name: "Rotate secret" })
      .click();
    await expect(secret).not.toHaveValue(first);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The signed-in person's identity joins when it accepts the organization's invitation.
    const organizationPage = page.url();
    const identityId = await openIdentity(page, username);
    const identityPage = page.url();
    await page.goto(organizationPage);
    await invite(page, identityId, "Member");
    await page.goto(identityPage);
    await page.getByRole("region", { name: "Invitations" }).getByRole("button", { name: "Accept" }).click();
    await expect(status(page, "Invitation accepted.")).toBeVisible();
    await page.goto(organizationPage);
    await expect(
      page.getByRole("region", { name: "Added identities" }).getByText("active", { exact: true }),
    ).toBeVisible();

    // The organization sees the identity by an ID of its own, not the identity's.
    await page
      .getByRole("region", { name: "Added identities" })
      .getByRole("link", { name: "As the organization sees it" })
      .click();
    await expect(page).toHaveURL(/\/o\/identity\/[\w-]+\/[\w-]+$/);
    await expect(page.getByText("ID in this organization")).toBeVisible();
    await expect(page.getByText("Signed in to 0 applications.")).toBeVisible();
    const scopedId = page.url().split("/").at(-1) ?? "";
    expect(scopedId).not.toBe("");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // The breadcrumbs lead up to the organization, by its name.
    await page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link").last().click();
    await expect(page.getByRole("region", { name: "Added identities" })).toBeVisible();

    // Secrets are not shown again.
    await page.reload();
    await expect(application.getByText("Backend client ID")).toBeVisible();
    await expect(secret).toHaveCount(0);

    // Disable, then remove, each after confirming.
    await application.getByRole("button", { name: "Disable" }).click();
    await page
      .getByRole("dialog", { name: `Disable ${templateName}?` })
      .getByRole("button", { name: "Disable" })
      .click();
    await expect(application.getByText("disabled", { exact: true })).toBeVisible();
    await application.getByRole("button", { name: "Remove" }).click();
    const removal = page.getByRole("dialog", { name: `Remove ${templateName}?` });
    await expect(removal).toContainText("This cannot be undone.");
    await removal.getByRole("button", { name: "Remove" }).click();
    await expect(status(page, `${templateName} removed.`)).toBeVisible();
    await expect(application).toHaveCount(0);
    await expect(
      page
        .getByRole("region", { name: "Available applications" })
        .getByRole("listitem")
        .filter({ hasText: templateName })
        .getByText("added", { exact: true }),
    ).toHaveCount(0);
    // The lists mark what the signed-in person administers.
    const organizationName = await page
      .getByRole("region", { name: "Organization" })
      .getByLabel("Name", { exact: true })
      .inputValue();
    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Organizations" })
      .click();
    await expect(
      page.getByRole("listitem").filter({ hasText: organizationName }).getByText("admin", { exact: true }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Home" }).click();
    await page.getByRole("link", { name: "Application templates" }).first().click();
    await expect(
      page.getByRole("listitem").filter({ hasText: templateName }).getByText("admin", { exact: true }),
    ).toBeVisible();
  });

  test("a new person signs up through a relying party of the organization's app", async ({
    page,
    browser,
    baseURL,
  }) => {
    const relyingParty = await startRelyingParty();
    const otherParty = await startRelyingParty();
    try {
      await page.goto("/");
      await signUp(page, newName("admin"));
      const templateName = newName("Template");
      const templateId = await createTemplate(page, templateName);
      const clientId = await createOrganizationWithApp(page, templateName, relyingParty.base);
      await relyingParty.setClient(baseURL ?? "", clientId);

      // The active application's page: what anybody sees, and its set-up for the admin.
      await page
        .getByRole("region", { name: "Added applications" })
        .getByRole("link", { name: /^Set-up details/ })
        .click();
      await expect(page.getByRole("heading", { level: 1, name: templateName })).toBeVisible();
      await expect(page.getByText(`uriBase: ${relyingParty.base}`)).toBeVisible();
      await expect(page.getByRole("region", { name: "Set-up" })).toContainText(clientId);
      const applicationPage = page.url();

      const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
      try {
        const person = await context.newPage();
        // Signed out, the application's page and the template's public view can be seen.
        await person.goto(applicationPage);
        await expect(person.getByRole("heading", { level: 1, name: templateName })).toBeVisible();
        await expect(person.getByText(`uriBase: ${relyingParty.base}`)).toBeVisible();
        await expect(person.getByRole("region", { name: "Set-up" })).toHaveCount(0);
        await expect(person.getByText(clientId)).toHaveCount(0);
        await person.goto(`${baseURL}/a/${templateId}`);
        await expect(person.getByRole("heading", { level: 1, name: templateName })).toBeVisible();
        await expect(person.getByText("{uriBase}/callback")).toHaveCount(0);
        await expect(person.getByRole("region", { name: "Variables" })).toHaveCount(0);

        const username = newName("person");
        const first = await signInThrough(person, relyingParty, username);
        expect(first.aud).toBe(clientId);
        expect(first.iss).toBe(baseURL);
        expect(typeof first.sub).toBe("string");

        // The same person signing in to the same app of another organization is someone else there.
        const secondClientId = await createOrganizationWithApp(page, templateName, otherParty.base);
        await otherParty.setClient(baseURL ?? "", secondClientId);
        // Signed in already, the person is asked only which identity the other organization's app gets.
        await person.goto(`${otherParty.base}/login`);
        await expect(person.getByText("You're signed in.")).toBeVisible();
        await expect(person.getByLabel("Password or passphrase", { exact: true })).toHaveCount(0);
        await identityItem(person, username).getByRole("button", { name: "Select" }).click();
        await person.getByRole("button", { name: "Redirect now" }).click();
        const second = await claimsAtApp(person);
        expect(second.aud).toBe(secondClientId);
        expect(typeof second.sub).toBe("string");
        expect(second.sub).not.toBe(first.sub);
      } finally {
        await context.close();
      }
    } finally {
      await relyingParty.close();
      await otherParty.close();
    }
  });
});
