import type { Locator, Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import {
  createEmptyTemplate,
  newName,
  passwordSteps,
  saveTemplate,
  signUp,
  status,
} from "./support/console.ts";
import { dropRefusedRequests } from "./support/flow.ts";

// The application template page for its admin: one form for the template's data, saved at once,
// with clients as cards and lifespans in minutes, hours or days.

const saveButton = (page: Page) => page.getByRole("button", { name: "Save changes" });

/** A lifespan field's number and unit. */
async function expectLifespan(card: Locator, label: string, amount: string, unit: string): Promise<void> {
  await expect(card.getByLabel(label, { exact: true })).toHaveValue(amount);
  await expect(card.getByLabel(`${label}: unit`)).toHaveValue(unit);
}

async function setLifespan(card: Locator, label: string, amount: string, unit: string): Promise<void> {
  await card.getByLabel(label, { exact: true }).fill(amount);
  await card.getByLabel(`${label}: unit`).selectOption(unit);
}

/** The page has no horizontal scrolling at the current width. */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe("the application template page", () => {
  test.use({ locale: "en-US" });

  test("variables, clients and a homepage using a new variable are saved at once and kept", async ({
    page,
  }) => {
    await page.goto("/");
    await signUp(page, newName("templates"));
    const name = newName("Template");
    await createEmptyTemplate(page, name);
    await expect(saveButton(page)).toBeDisabled();

    // The homepage uses a variable that is only defined further down, in the same save.
    const general = page.getByRole("region", { name: "General" });
    await general.getByLabel("Description").fill("The team's wiki");
    await general.getByLabel("Homepage template").fill("{uriBase}/{tenant}/home");
    await general.getByLabel("OpenID scopes").fill("openid profile email");
    await expect(saveButton(page)).toBeEnabled();
    await expect(page.getByText("Unsaved changes", { exact: true })).toBeVisible();

    const variables = page.getByRole("region", { name: "Variables" });
    for (const [index, variable] of ["uriBase", "tenant"].entries()) {
      await variables.getByRole("button", { name: "Add variable" }).click();
      await variables
        .getByRole("group", { name: `Variable ${index + 1}` })
        .getByLabel("Name")
        .fill(variable);
    }

    const clients = page.getByRole("region", { name: "Clients" });
    await clients.getByRole("button", { name: "Add public client" }).click();
    const publicClient = clients.getByRole("group", { name: "Public client 1" });
    await expect(publicClient.getByText("Public", { exact: true })).toBeVisible();
    await expect(publicClient.getByLabel("OIDC redirect URI templates")).toHaveValue(
      "{uriBase}/oidc/redirect",
    );
    await publicClient.getByLabel("Description").fill("Web app");
    await publicClient.getByLabel("OIDC redirect URI templates").fill("{uriBase}/{tenant}/callback");
    await publicClient.getByRole("radio", { name: /Signed JWT/ }).check();
    // Public clients have no secret to authenticate with.
    await expect(publicClient.getByText("Token endpoint authentication method")).toHaveCount(0);
    await expectLifespan(publicClient, "Access token lifespan", "1", "hours");
    await expectLifespan(publicClient, "Refresh token lifespan", "30", "days");
    await setLifespan(publicClient, "Access token lifespan", "15", "minutes");
    await setLifespan(publicClient, "Refresh token lifespan", "36", "hours");

    // A service client gets no ID or refresh tokens and redirects nowhere: it shows no such fields.
    await clients.getByRole("button", { name: "Add service client" }).click();
    const serviceClient = clients.getByRole("group", { name: "Service client 1" });
    await expect(serviceClient.getByText("Service", { exact: true })).toBeVisible();
    await expect(serviceClient.getByLabel("Access token lifespan", { exact: true })).toBeVisible();
    await expect(serviceClient.getByLabel("ID token lifespan", { exact: true })).toHaveCount(0);
    await expect(serviceClient.getByLabel("Refresh token lifespan", { exact: true })).toHaveCount(0);
    await expect(serviceClient.getByLabel("OIDC redirect URI templates")).toHaveCount(0);
    // Option values in words, with the value the OIDC documents use beside them.
    const basic = serviceClient.getByRole("radio", { name: /Client secret in the Authorization header/ });
    await expect(basic).toHaveAccessibleName(/client_secret_basic/);
    await basic.check();
    await setLifespan(serviceClient, "Access token lifespan", "2", "days");

    await saveTemplate(page);
    await expect(saveButton(page)).toBeDisabled();
    await expect(page.getByText("Unsaved changes", { exact: true })).toHaveCount(0);
    // Saved clients get their IDs and fold into compact cards.
    await expect(publicClient.getByRole("button", { name: "Copy client template ID" })).toBeVisible();
    await expect(publicClient.getByLabel("Description")).toBeHidden();
    await expect(publicClient.getByText("Signed JWT, 15 minutes")).toBeVisible();
    await expect(serviceClient.getByText("Opaque (HMAC), 2 days")).toBeVisible();

    // The next edit takes the success message away.
    await general.getByLabel("Description").fill("The team's wiki, shared");
    await expect(status(page, "Application template updated successfully.")).toHaveCount(0);
    await general.getByLabel("Description").fill("The team's wiki");
    await expect(saveButton(page)).toBeDisabled();

    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(general.getByLabel("Homepage template")).toHaveValue("{uriBase}/{tenant}/home");
    await expect(general.getByLabel("OpenID scopes")).toHaveValue("openid profile email");
    await expect(variables.getByRole("group", { name: "Variable 2" }).getByLabel("Name")).toHaveValue(
      "tenant",
    );
    await publicClient.getByRole("button", { name: "Edit settings: Public client 1" }).click();
    await expect(publicClient.getByLabel("Description")).toHaveValue("Web app");
    await expect(publicClient.getByLabel("OIDC redirect URI templates")).toHaveValue(
      "{uriBase}/{tenant}/callback",
    );
    await expect(publicClient.getByRole("radio", { name: /Signed JWT/ })).toBeChecked();
    await expectLifespan(publicClient, "Access token lifespan", "15", "minutes");
    await expectLifespan(publicClient, "ID token lifespan", "1", "hours");
    await expectLifespan(publicClient, "Refresh token lifespan", "36", "hours");
    await serviceClient.getByRole("button", { name: "Edit settings: Service client 1" }).click();
    await expectLifespan(serviceClient, "Access token lifespan", "2", "days");
    await expect(basic).toBeChecked();
    await expect(saveButton(page)).toBeDisabled();
  });

  test("mistakes are shown at their fields, also inside a client's card", async ({ page, pageErrors }) => {
    await page.goto("/");
    await signUp(page, newName("templates"));
    await createEmptyTemplate(page, newName("Template"));
    const clients = page.getByRole("region", { name: "Clients" });
    await clients.getByRole("button", { name: "Add public client" }).click();
    const client = clients.getByRole("group", { name: "Public client 1" });

    // What the page can tell itself: a client without redirect URIs, a lifespan of zero.
    await client.getByLabel("Access token lifespan", { exact: true }).fill("0");
    await saveButton(page).click();
    const lifespan = client.getByLabel("Access token lifespan", { exact: true });
    await expect(lifespan).toHaveAccessibleDescription("Enter a number above zero, up to 10 years.");
    const redirects = client.getByLabel("OIDC redirect URI templates");
    await expect(redirects).toHaveAccessibleDescription(/Add at least one redirect URI\./);
    await expect(redirects).toBeFocused();
    await redirects.fill("https://app.example.com/callback");
    await lifespan.fill("20");
    await saveTemplate(page);

    // What the server refuses, at the field it names, in the card it opens: unknown variables.
    await expect(client.getByLabel("OIDC redirect URI templates")).toBeHidden();
    await page.getByLabel("Homepage template").fill("https://app.example.com");
    await client.getByRole("button", { name: "Edit settings: Public client 1" }).click();
    await redirects.fill("{site}/callback\n{uriBase}/{port}/callback");
    await client.getByRole("button", { name: "Hide settings: Public client 1" }).click();
    await saveButton(page).click();
    await expect(redirects).toHaveAccessibleDescription(
      /The template uses variables that are not defined: port, site, uriBase\./,
    );
    await expect(redirects).toBeFocused();
    await expect(page.getByRole("alert").filter({ hasText: "Some fields need a correction" })).toBeVisible();
    dropRefusedRequests(pageErrors);

    // A refused homepage is reported on its field.
    await redirects.fill("https://app.example.com/callback");
    const homepage = page.getByLabel("Homepage template");
    await homepage.fill("not a URL");
    await saveButton(page).click();
    await expect(homepage).toHaveAccessibleDescription(/Invalid homepage\./);
    await expect(homepage).toBeFocused();
    dropRefusedRequests(pageErrors);
    await homepage.fill("https://app.example.com");
    await saveTemplate(page);

    // A saved client is removed only after confirming, and only for good once saved.
    await client.getByRole("button", { name: "Remove: Public client 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove Public client 1?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(client).toBeVisible();
    await client.getByRole("button", { name: "Remove: Public client 1" }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect(client).toHaveCount(0);
    await expect(clients.getByText("There are no clients yet.")).toBeVisible();
    await saveTemplate(page);
    await page.reload();
    await expect(clients.getByText("There are no clients yet.")).toBeVisible();
  });

  test("a client's sign-out URIs and pushed requests are set in its card, checked and kept", async ({
    page,
    pageErrors,
  }) => {
    await page.goto("/");
    await signUp(page, newName("templates"));
    await createEmptyTemplate(page, newName("Template"));
    const variables = page.getByRole("region", { name: "Variables" });
    await variables.getByRole("button", { name: "Add variable" }).click();
    await variables.getByRole("group", { name: "Variable 1" }).getByLabel("Name").fill("uriBase");

    const clients = page.getByRole("region", { name: "Clients" });
    await clients.getByRole("button", { name: "Add public client" }).click();
    const publicClient = clients.getByRole("group", { name: "Public client 1" });
    const postLogout = publicClient.getByLabel("Post-logout redirect URI templates");
    await expect(postLogout).toHaveValue("");
    await postLogout.fill("{uriBase}/signed-out\nhttp://localhost:3000/bye");
    // A public client has no server to be told of logouts.
    await expect(publicClient.getByLabel("Back-channel logout URI template")).toHaveCount(0);
    const publicPar = publicClient.getByRole("checkbox", {
      name: "Require pushed authorization requests (PAR)",
    });
    await expect(publicPar).not.toBeChecked();
    await expect(publicPar).toHaveAccessibleDescription(
      /sign-in requests that come only through the browser are refused/,
    );
    // The whole frame toggles it, its help text included.
    await publicClient.getByText(/must first send each sign-in request to Vrata directly/).click();
    await expect(publicPar).toBeChecked();

    await clients.getByRole("button", { name: "Add backend client" }).click();
    const backendClient = clients.getByRole("group", { name: "Backend client 1" });
    const backchannel = backendClient.getByLabel("Back-channel logout URI template");
    await expect(backchannel).toHaveAccessibleDescription(/tells the app's server that a person signed out/);
    await backchannel.fill("http://app.example.com/logout");
    await saveButton(page).click();
    await expect(backchannel).toHaveAccessibleDescription(
      /Invalid back-channel logout URI: use https:\/\/ \(http:\/\/ only on localhost\), without a fragment\./,
    );
    await expect(backchannel).toBeFocused();
    dropRefusedRequests(pageErrors);
    await backchannel.fill("{uriBase}/oidc/backchannel-logout");

    // A service client signs nobody in: it has none of these settings.
    await clients.getByRole("button", { name: "Add service client" }).click();
    const serviceClient = clients.getByRole("group", { name: "Service client 1" });
    await expect(serviceClient.getByLabel("Post-logout redirect URI templates")).toHaveCount(0);
    await expect(serviceClient.getByRole("checkbox")).toHaveCount(0);
    await saveTemplate(page);

    // The folded cards show them at a glance.
    await expect(publicClient.getByText("PAR required", { exact: true })).toBeVisible();
    await expect(publicClient.getByText("{uriBase}/signed-out", { exact: true })).toBeVisible();
    await expect(backendClient.getByText("PAR required", { exact: true })).toHaveCount(0);
    await expect(backendClient.getByText("{uriBase}/oidc/backchannel-logout", { exact: true })).toBeVisible();

    await page.reload();
    await publicClient.getByRole("button", { name: "Edit settings: Public client 1" }).click();
    await expect(postLogout).toHaveValue("{uriBase}/signed-out\nhttp://localhost:3000/bye");
    await expect(publicPar).toBeChecked();
    await backendClient.getByRole("button", { name: "Edit settings: Backend client 1" }).click();
    await expect(backchannel).toHaveValue("{uriBase}/oidc/backchannel-logout");
    await expect(backendClient.getByLabel("Post-logout redirect URI templates")).toHaveValue("");
    await expect(backendClient.getByRole("checkbox", { name: /PAR/ })).not.toBeChecked();
    await expect(saveButton(page)).toBeDisabled();
  });

  test("leaving with unsaved changes asks first", async ({ page }) => {
    await page.goto("/");
    await signUp(page, newName("templates"));
    const name = newName("Template");
    await createEmptyTemplate(page, name);
    await page.getByRole("region", { name: "General" }).getByLabel("Description").fill("Not saved");

    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Application templates" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByLabel("Description")).toHaveValue("Not saved");

    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Application templates" })
      .click();
    await dialog.getByRole("button", { name: "Leave page" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Application templates" })).toBeVisible();
  });

  test("a save over a newer one from elsewhere is refused, with a way to load that one", async ({
    page,
    browser,
    pageErrors,
  }) => {
    await page.goto("/");
    const username = newName("templates");
    await signUp(page, username);
    await createEmptyTemplate(page, newName("Template"));

    // The same admin changes the template in another browser meanwhile.
    const elsewhere = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
    try {
      const other = await elsewhere.newPage();
      await other.goto(page.url());
      await other.getByRole("button", { name: "Sign in or sign up" }).first().click();
      await passwordSteps(other, username);
      await other.getByRole("region", { name: "General" }).getByLabel("Description").fill("Theirs");
      await saveTemplate(other);
    } finally {
      await elsewhere.close();
    }

    const description = page.getByRole("region", { name: "General" }).getByLabel("Description");
    await description.fill("Mine");
    await saveButton(page).click();
    await expect(page.getByRole("alert")).toContainText(
      "Someone else saved this template while you were editing it.",
    );
    const rest = pageErrors.filter((error) => !error.includes("status of 409"));
    pageErrors.splice(0, pageErrors.length, ...rest);
    await page.getByRole("button", { name: "Load the latest version" }).click();
    await expect(description).toHaveValue("Theirs");
    await expect(saveButton(page)).toBeDisabled();
  });

  for (const [locale, edit, addPublic, addService] of [
    ["en", "Edit settings", "Add public client", "Add service client"],
    ["sl", "Uredi nastavitve", "Dodaj javnega odjemalca", "Dodaj storitvenega odjemalca"],
  ] as const) {
    test(`fits phones and desktops and passes the accessibility scan (${locale})`, async ({ page }) => {
      // Four accessibility scans of a long page.
      test.slow();
      await page.goto("/");
      await signUp(page, newName("templates"));
      await createEmptyTemplate(page, newName("A template with a rather long name to wrap"));
      await page.evaluate((language) => localStorage.setItem("vrata.locale", language), locale);
      await page.reload();
      await page.getByRole("button", { name: addPublic }).click();
      await page.getByRole("button", { name: addService }).click();
      await page.getByRole("textbox").first().fill("Changed");
      await expect(page.getByRole("button", { name: new RegExp(`^${edit}`) })).toHaveCount(0);

      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoHorizontalOverflow(page);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
      }
    });
  }
});
