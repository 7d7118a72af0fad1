import { createHash, randomBytes } from "node:crypto";
import { apiPath, apiPrefix, pathFor, routes } from "../src/common/routes.ts";
import { expect, test } from "./fixtures.ts";
import { consoleCaller, createTemplate, newName, password, saveTemplate, signUp } from "./support/console.ts";
import { flowLabels } from "./support/labels.ts";
import { checkAtBothWidths } from "./support/layout-checks.ts";

// A scope an app defines for its own API: typed on its template's page (and refused there while its
// name is malformed), given to a client, and named with its description on the identity step of a
// sign-in that asks for it, in the person's language.

const uriBase = "https://orders.example";
const scope = {
  name: "orders:read",
  en: "See the orders you placed",
  sl: "Ogled naročil, ki ste jih oddali",
};
test.describe("scopes an app defines", () => {
  test.use({ locale: "en-US" });

  test("are typed on the template's page, refused at their field while malformed, and kept", async ({
    page,
  }) => {
    await page.goto("/");
    await signUp(page, newName("scopes"));
    await createTemplate(page, newName("Orders"));

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
    await checkAtBothWidths(page, "template-app-scopes-refused");

    await row.getByLabel("Name").fill(scope.name);
    await saveTemplate(page);
    await page.reload();
    const saved = page.getByRole("region", { name: "App scopes" }).getByRole("group", { name: "Scope 1" });
    await expect(saved.getByLabel("Name")).toHaveValue(scope.name);
    await expect(saved.getByLabel("Description in Slovenian")).toHaveValue(scope.sl);
  });

  for (const language of ["en", "sl"] as const) {
    test(`are named with their description on the identity step (${language})`, async ({
      page,
      browser,
      baseURL,
    }) => {
      // The app, made through the console's API: a template with the scope, given to its public client.
      await page.goto("/");
      await signUp(page, newName("scopes"));
      const call = await consoleCaller(page);
      const appName = newName("Orders");
      const template = await call<{ id: string }>(apiPath("ApplicationTemplateCreate"), {
        name: appName,
        appScopes: [{ name: scope.name, description: { en: scope.en, sl: scope.sl } }],
        variables: [{ name: "uriBase" }],
        clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"], additionalScopes: [scope.name] }],
      });
      const { id } = await call<{ id: string }>(apiPath("OrganizationCreate"), {
        name: newName("Organization"),
      });
      const updated = await call<{ applications: { clientsPublic: { id: string }[] }[] }>(
        apiPrefix + pathFor("OrganizationUpdate", { id }),
        {
          version: 1,
          name: newName("Organization"),
          admins: [],
          applications: [
            { templateId: template.id, active: true, values: [{ name: "uriBase", value: uriBase }] },
          ],
        },
      );
      const clientId = updated.applications[0]?.clientsPublic[0]?.id ?? "";

      // A new person, in a browser of their own language, signs up through the app's request.
      const labels = flowLabels[language];
      const context = await browser.newContext({
        baseURL,
        ignoreHTTPSErrors: true,
        locale: language === "en" ? "en-US" : "sl-SI",
      });
      try {
        const person = await context.newPage();
        const verifier = randomBytes(32).toString("base64url");
        const request = new URLSearchParams({
          client_id: clientId,
          response_type: "code",
          redirect_uri: `${uriBase}/callback`,
          scope: `openid profile email ${scope.name}`,
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256",
          state: randomBytes(16).toString("base64url"),
        });
        await person.goto(`${routes.OIDCAuthorize.path}?${request}`);
        await person.getByLabel(labels.identifier, { exact: true }).fill(newName("buyer"));
        await person.getByRole("button", { name: labels.next }).click();
        await person.getByLabel(labels.password, { exact: true }).fill(password);
        await person.getByRole("button", { name: labels.submit }).click();
        await expect(person.getByText(labels.signedUp)).toBeVisible();

        // What the app receives of the identity chosen, then what else it asks for.
        const data = {
          en: [
            "receives from the identity you choose:",
            "its name, username and picture",
            "its e-mail address",
          ],
          sl: [
            "od identitete, ki jo izberete, prejme:",
            "njeno ime, uporabniško ime in sliko",
            "njen e-poštni naslov",
          ],
        }[language];
        const received = person.getByText(data[0] ?? "").locator("..");
        await expect(received).toContainText(appName);
        await expect(received.getByRole("listitem")).toHaveText(data.slice(1));
        const intro = { en: "also asks for this access:", sl: "zahteva tudi ta dostop:" }[language];
        const asked = person.getByText(intro).locator("..");
        await expect(asked).toContainText(appName);
        await expect(asked.getByRole("listitem")).toHaveText(`${scope[language]}${scope.name}`);
        await checkAtBothWidths(person, `identity-app-scopes-${language}`);
      } finally {
        await context.close();
      }
    });
  }
});
