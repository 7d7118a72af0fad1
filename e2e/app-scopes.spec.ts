import { createHash, randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import {
  createOrganizationWithApp,
  createTemplate,
  newName,
  password,
  saveTemplate,
  signUp,
} from "./support/console.ts";
import { flowLabels } from "./support/labels.ts";
import { checkPage } from "./support/layout-checks.ts";

// A scope an app defines for its own API: typed on its template's page (and refused there while its
// name is malformed), given to a client, and named with its description on the identity step of a
// sign-in that asks for it, in the person's language.

const uriBase = "https://orders.example";
const scope = {
  name: "orders:read",
  en: "See the orders you placed",
  sl: "Ogled naročil, ki ste jih oddali",
};
const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** The authorization request of the app's public client asking for its scope, as the app would send it. */
function authorizationUrl(baseURL: string, clientId: string, locale: string): string {
  const verifier = randomBytes(32).toString("base64url");
  const parameters = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: `${uriBase}/callback`,
    scope: `openid ${scope.name}`,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: randomBytes(16).toString("base64url"),
    ui_locales: locale,
  });
  return `${baseURL}/auth/oidc/authorize?${parameters}`;
}

/** A new person, in a browser of their own language, signs up through the app's request up to the identity step. */
async function identityStep(browser: Browser, baseURL: string, clientId: string, language: "en" | "sl") {
  const labels = flowLabels[language];
  const context = await browser.newContext({
    baseURL,
    ignoreHTTPSErrors: true,
    locale: language === "en" ? "en-US" : "sl-SI",
  });
  const page = await context.newPage();
  await page.goto(authorizationUrl(baseURL, clientId, language));
  await page.getByLabel(labels.identifier, { exact: true }).fill(newName("buyer"));
  await page.getByRole("button", { name: labels.next }).click();
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: labels.submit }).click();
  await expect(page.getByText(labels.signedUp)).toBeVisible();
  return { page, close: () => context.close() };
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await checkPage(page, `${name}-${viewport.width}`);
  }
}

test.describe("scopes an app defines", () => {
  test.use({ locale: "en-US" });

  test("are typed on the template, and the identity step names them in each language", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.goto("/");
    await signUp(page, newName("scopes"));
    const templateName = newName("Orders");
    await createTemplate(page, templateName);

    const scopes = page.getByRole("region", { name: "App scopes" });
    await expect(scopes.getByText("The app defines no scopes of its own.")).toBeVisible();
    await scopes.getByRole("button", { name: "Add scope" }).click();
    const row = scopes.getByRole("group", { name: "Scope 1" });
    await row.getByLabel("Name").fill("orders read");
    await row.getByLabel("Description in English").fill(scope.en);
    await row.getByLabel("Description in Slovenian").fill(scope.sl);
    const client = page.getByRole("group", { name: "Public client 1" });
    await client.getByRole("button", { name: "Edit settings: Public client 1" }).click();
    await client.getByLabel("Additional scopes").fill(scope.name);

    // A malformed name is refused at its field before anything is sent; so is a scope no one defined.
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(row.getByLabel("Name")).toBeFocused();
    await expect(
      row.getByText(/^Invalid scope name orders read: start with a letter or digit/),
    ).toBeVisible();
    await expect(client.getByText(/^Unknown scope orders:read\./)).toBeVisible();
    await screenshots(page, "template-app-scopes-refused");
    await row.getByLabel("Name").fill(scope.name);
    await saveTemplate(page);
    await expect(row.getByLabel("Name")).toHaveValue(scope.name);
    await expect(page.getByRole("alert").filter({ hasText: "scope" })).toHaveCount(0);

    const clientId = await createOrganizationWithApp(page, templateName, uriBase);
    const heading = { en: "also asks for this access:", sl: "zahteva tudi ta dostop:" };
    for (const language of ["en", "sl"] as const) {
      const person = await identityStep(browser, baseURL ?? "", clientId, language);
      const asked = person.page.getByText(heading[language]).locator("..");
      await expect(asked).toContainText(templateName);
      const item = asked.getByRole("listitem");
      await expect(item).toHaveText(`${scope[language]}${scope.name}`);
      await screenshots(person.page, `identity-app-scopes-${language}`);
      await person.close();
    }
  });
});
