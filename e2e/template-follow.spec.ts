import type { Page } from "@playwright/test";
import { dropFailedLoads, expect, test } from "./fixtures.ts";
import { createOrganizationWithApp, createTemplate, newName, signUp, status } from "./support/console.ts";
import { checkAtBothWidths } from "./support/layout-checks.ts";

// An organization's app follows its template: the template's save asks before removing a client that
// organizations' apps have, and says how many follow; an app that needs configuration says so on its
// page, with the one form that gives it what it needs.

/** Switches the interface's language where the page is, keeping what is on it. */
async function switchLanguage(page: Page, label: "Language" | "Jezik", language: "en" | "sl") {
  await page.getByRole("combobox", { name: label }).selectOption(language);
}

test.describe("an organization's app following its template", () => {
  test.use({ locale: "en-US" });

  test("asks before removing a client organizations use, then the app asks for what the change needs", async ({
    page,
    pageErrors,
  }) => {
    await page.goto("/");
    await signUp(page, newName("follow"));
    const templateName = newName("Wiki");
    const templateId = await createTemplate(page, templateName);
    await createOrganizationWithApp(page, templateName, "https://wiki.example");
    const organizationPath = new URL(page.url()).pathname;

    // The template gains a variable without a default and a backend client, and loses its public client.
    await page.goto(`/a/${templateId}`);
    const variables = page.getByRole("region", { name: "Variables" });
    await variables.getByRole("button", { name: "Add variable" }).click();
    await variables.getByRole("group", { name: "Variable 2" }).getByLabel("Name").fill("space");
    await page.getByRole("button", { name: "Add backend client" }).click();
    const backend = page.getByRole("group", { name: "Backend client 1" });
    await backend.getByLabel("OIDC redirect URI templates").fill("{uriBase}/{space}/callback");
    await page.getByRole("button", { name: "Remove: Public client 1" }).click();
    await page
      .getByRole("dialog", { name: "Remove Public client 1?" })
      .getByRole("button", { name: "Remove" })
      .click();

    // In Slovenian first: the question names the client and how many organizations use the template.
    await switchLanguage(page, "Language", "sl");
    await page.getByRole("button", { name: "Shrani spremembe" }).click();
    const vprasanje = page.getByRole("dialog", { name: "Želite odstraniti odjemalca »Javni odjemalec«?" });
    await expect(vprasanje.getByText(/^To predlogo uporablja 1 organizacija\./)).toBeVisible();
    await checkAtBothWidths(page, "template-remove-client-sl");
    await vprasanje.getByRole("button", { name: "Prekliči" }).click();
    await switchLanguage(page, "Jezik", "en");

    await page.getByRole("button", { name: "Save changes" }).click();
    const question = page.getByRole("dialog", { name: "Remove the client “Public client”?" });
    await expect(question.getByText(/^1 organization uses this template\./)).toBeVisible();
    await checkAtBothWidths(page, "template-remove-client-en");
    await question.getByRole("button", { name: "Remove and save" }).click();
    await expect(
      status(
        page,
        "Application template updated successfully. The app of 1 organization follows the change.",
      ),
    ).toBeVisible();

    // The organization's app needs configuration: its card says so, its page asks for it.
    await page.goto(organizationPath);
    const card = page
      .getByRole("region", { name: "Added applications" })
      .getByRole("listitem")
      .filter({ hasText: templateName });
    await expect(card.getByText("Needs configuration")).toBeVisible();
    await expect(card.getByText("Public client ID")).toHaveCount(0);
    await card.getByRole("link", { name: "Set-up" }).click();
    const needs = page.getByRole("region", { name: "Needs configuration" });
    await expect(needs.getByText(/^Backend client/)).toBeVisible();
    await checkAtBothWidths(page, "app-needs-configuration-en");
    await switchLanguage(page, "Language", "sl");
    await expect(page.getByRole("region", { name: "Manjkajo nastavitve" })).toBeVisible();
    await checkAtBothWidths(page, "app-needs-configuration-sl");
    await switchLanguage(page, "Jezik", "en");

    // An empty value is refused; given, the app is configured and the new client's secret shown once.
    await needs.getByRole("button", { name: "Save configuration" }).click();
    await expect(needs.getByRole("alert")).toBeVisible();
    dropFailedLoads(pageErrors, 400);
    await needs.getByLabel("space").fill("team");
    await needs.getByRole("button", { name: "Save configuration" }).click();
    await expect(status(page, "Configuration saved.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Needs configuration" })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: /^Client secret/ })).toHaveValue(/^vcs-/);
    await expect(page.getByText("https://wiki.example/team/callback", { exact: true })).toBeVisible();
    await checkAtBothWidths(page, "app-configured-en");
  });
});
