import type { APIRequestContext, Page } from "@playwright/test";
import { organizationSchema } from "../src/common/api/organization.ts";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { accountMenu, createOrganization, newName, signUp } from "./support/console.ts";

// The activity list in words: after creating an application template and an organization, and
// changing the organization, the list names them with links and says what changed, in English and in
// Slovenian, at a phone's width and a desktop's.

const widths = [390, 1280];
const rows = (page: Page) => page.getByRole("main").locator("ol > li");

/** The console's access token, as the page sends it, to make entries quickly through the API. */
async function consoleToken(page: Page): Promise<string> {
  const listRequest = page.waitForRequest((candidate) => candidate.url().endsWith("/api/i"));
  await page.goto("/i");
  return (await (await listRequest).allHeaders()).authorization ?? "";
}

async function postOk(request: APIRequestContext, authorization: string, path: string, data: unknown) {
  const response = await request.post(path, { headers: { authorization }, data });
  expect(response.ok()).toBe(true);
  return (await response.json()) as unknown;
}

/** Whether the page is wider than the window: content that would scroll sideways. */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

async function inLanguage(page: Page, language: "en" | "sl", path: string) {
  await page.evaluate((chosen) => localStorage.setItem("vrata.locale", chosen), language);
  await page.goto(path);
  await expect(
    page.getByRole("button", { name: language === "en" ? "Account menu" : "Meni računa" }),
  ).toBeVisible();
}

test.use({ locale: "en-US" });

test("activity names what was created and says what changed, in English and Slovenian", async ({
  page,
  request,
}) => {
  // Two languages at two widths, each scanned for accessibility.
  test.slow();
  const username = newName("activity");
  await page.goto("/");
  await signUp(page, username);
  const authorization = await consoleToken(page);

  const templateName = newName("Timesheets");
  const { id: templateId } = (await postOk(request, authorization, "/api/a/create", {
    name: templateName,
    variables: [{ name: "uriBase" }],
    clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"] }],
  })) as { id: string };
  const organizationId = await createOrganization(page, newName("Acme"));
  const created = organizationSchema.parse(
    await (await request.get(`/api/o/${organizationId}`, { headers: { authorization } })).json(),
  );
  const organizationName = newName("Acme Works");
  const updated = organizationSchema.parse(
    await postOk(request, authorization, `/api/o/update/${organizationId}`, {
      version: created.version,
      name: organizationName,
      description: "Time well spent",
      admins: created.admins,
      applications: [
        { templateId, active: true, values: [{ name: "uriBase", value: "https://time.example" }] },
      ],
    }),
  );
  const applicationId = updated.applications?.[0]?.id ?? "";

  for (const language of ["en", "sl"] as const) {
    await inLanguage(page, language, "/activity");
    const entries = rows(page);
    const [update, create, template] = [entries.nth(0), entries.nth(1), entries.nth(2)];
    if (language === "en") {
      await expect(update).toContainText(`Changed the organization ${organizationName}`);
      await expect(update).toContainText("Changed the name and description.");
      await expect(update).toContainText(`Added the application ${templateName}.`);
      await expect(create).toContainText(`Created the organization ${organizationName}`);
      await expect(template).toContainText(`Created the application template ${templateName}`);
    } else {
      await expect(update).toContainText(`Spremenjena organizacija ${organizationName}`);
      await expect(update).toContainText("Spremenjeno: ime in opis.");
      await expect(update).toContainText(`Dodana aplikacija ${templateName}.`);
      await expect(create).toContainText(`Ustvarjena organizacija ${organizationName}`);
      await expect(template).toContainText(`Ustvarjena predloga aplikacije ${templateName}`);
      // The built-in console, in Slovenian.
      await expect(entries.filter({ hasText: "Prijava v aplikacijo Konzola" })).toHaveCount(1);
    }
    // The names are links to their pages.
    await expect(update.getByRole("link", { name: organizationName })).toHaveAttribute(
      "href",
      `/o/${organizationId}`,
    );
    await expect(update.getByRole("link", { name: templateName })).toHaveAttribute(
      "href",
      `/o/app/${organizationId}/${applicationId}`,
    );
    await expect(template.getByRole("link", { name: templateName })).toHaveAttribute(
      "href",
      `/a/${templateId}`,
    );
    await expect(update.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);

    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      expect(await overflows(page), `${language} at ${width} px`).toBe(false);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // An entry's own page says it in the same words, with everything it refers to.
  await rows(page)
    .nth(0)
    .getByRole("link", { name: /^Podrobnosti vnosa/ })
    .click();
  await expect(
    page.getByRole("heading", { level: 1, name: `Spremenjena organizacija ${organizationName}` }),
  ).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "Spremenjeno: ime in opis." })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 900 });
  expect(await overflows(page)).toBe(false);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test("a sign-out names the app and the identity it left, and a template the identity that made it", async ({
  page,
  request,
}) => {
  const username = newName("leaving");
  await page.goto("/");
  await signUp(page, username);
  const templateName = newName("Notes");
  await postOk(request, await consoleToken(page), "/api/a/create", {
    name: templateName,
    clientsPublic: [{ redirectUriTemplates: ["https://notes.example/callback"] }],
  });
  await accountMenu(page).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await signUp(page, username);

  await page.goto("/activity");
  const signOut = rows(page).filter({ hasText: "Signed out of Console" });
  await expect(signOut).toHaveCount(1);
  await expect(signOut).toContainText("Organization: Vrata");
  await expect(signOut).toContainText(`Identity: ${username}`);
  const template = rows(page).filter({ hasText: `Created the application template ${templateName}` });
  await expect(template).toContainText(`By: ${username}`);
  await expect(template.getByRole("link", { name: username, exact: true })).toHaveAttribute("href", /^\/i\//);
});

test("the list narrows to one kind of activity, kept in the address", async ({ page, request }) => {
  const username = newName("filter");
  await page.goto("/");
  await signUp(page, username);
  const authorization = await consoleToken(page);
  const templateName = newName("Wiki");
  await postOk(request, authorization, "/api/a/create", { name: templateName });

  await page.goto("/activity");
  await expect(rows(page)).toHaveCount(4);
  await page.getByLabel("Show").selectOption({ label: "Sign-ins and sign-outs" });
  await expect(page).toHaveURL(/\/activity\?category=signIns$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText("Signed in to Console");
  await page.reload();
  await expect(page.getByLabel("Show")).toHaveValue("signIns");
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel("Show").selectOption({ label: "Application templates" });
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(`Created the application template ${templateName}`);
  await page.getByLabel("Show").selectOption({ label: "Organizations" });
  await expect(page.getByText("There is no activity of this kind yet.")).toBeVisible();
});

test("the built-in console's page, reached from a sign-in, is named in Slovenian", async ({ page }) => {
  await page.goto("/");
  await signUp(page, newName("console"));
  await inLanguage(page, "sl", "/activity");
  await rows(page)
    .filter({ hasText: "Prijava v aplikacijo Konzola" })
    .getByRole("link", { name: "Konzola" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Konzola" })).toBeVisible();
  const breadcrumbs = page.getByRole("navigation", { name: "Drobtinice" });
  await expect(breadcrumbs.getByText("Konzola")).toHaveAttribute("aria-current", "page");
  await breadcrumbs.getByRole("link", { name: "Vrata" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Vrata" })).toBeVisible();
});

test.describe("in Slovenian", () => {
  test.use({ locale: "sl-SI" });

  test("the sign-in page names the built-in console in Slovenian", async ({ page }) => {
    await page.goto("/activity");
    await page.getByRole("button", { name: "Prijavi ali registriraj se" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Konzola" })).toBeVisible();
  });
});
