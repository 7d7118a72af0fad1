import type { Page } from "@playwright/test";
import { apiPath, apiPrefix, pathFor, routes } from "../src/common/routes.ts";
import { expect, test } from "./fixtures.ts";
import { consoleCaller, newName, openIdentity, signUp, type ConsoleCaller } from "./support/console.ts";
import { identityItem } from "./support/flow.ts";
import { checkInBothSchemes } from "./support/layout-checks.ts";

// The Set-up section of an app is enough to connect it: the values, configuration of common
// libraries to copy, and "Try signing in", which runs the app's sign-in as its test client and shows
// what the app gets.

test.use({ locale: "en-US", permissions: ["clipboard-read", "clipboard-write"] });
// A sign-up, an app made through the API, a tried sign-in, and pages looked at in two languages.
test.slow();

const uriBase = "https://notes.example";
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function inLanguage(page: Page, language: "en" | "sl"): Promise<void> {
  await page.evaluate((locale) => localStorage.setItem("vrata.locale", locale), language);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}

/** An organization with an app of the clients given, made through the console's API; its page's path. */
async function organizationApp(call: ConsoleCaller, appName: string, clients: object): Promise<string> {
  const template = await call<{ id: string }>(apiPath("ApplicationTemplateCreate"), {
    name: appName,
    idScopes: ["openid", "profile", "email"],
    appScopes: [{ name: "notes:read", description: { en: "Read your notes", sl: "Branje vaših zapiskov" } }],
    variables: [{ name: "uriBase" }],
    ...clients,
  });
  const { id } = await call<{ id: string }>(apiPath("OrganizationCreate"), { name: newName("Organization") });
  const organization = await call<{ version: number; name: string }>(
    apiPrefix + pathFor("OrganizationGet", { id }),
  );
  const updated = await call<{ applications: { id: string }[] }>(
    apiPrefix + pathFor("OrganizationUpdate", { id }),
    {
      version: organization.version,
      name: organization.name,
      admins: [],
      applications: [
        { templateId: template.id, active: true, values: [{ name: "uriBase", value: uriBase }] },
      ],
    },
  );
  return pathFor("OrganizationApp", { id, appId: updated.applications[0]?.id ?? "" });
}

test("an admin copies a library's configuration, tries the app's sign-in and sees what the app gets", async ({
  page,
  baseURL,
}) => {
  const issuer = baseURL ?? "";
  const username = newName("notes-admin");
  const email = `${username}@example.com`;
  await page.goto("/");
  await signUp(page, username);
  const identityId = await openIdentity(page, username);
  const call = await consoleCaller(page);
  const identity = await call<{ version: number }>(apiPrefix + pathFor("IdentityGet", { id: identityId }));
  await call(apiPrefix + pathFor("IdentityUpdate", { id: identityId }), {
    version: identity.version,
    username,
    email,
  });
  const appName = newName("Notes");
  const appPage = await organizationApp(call, appName, {
    clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"], additionalScopes: ["notes:read"] }],
    clientsService: [{ description: "nightly export", additionalScopes: ["notes:read"] }],
  });
  const application = await call<{
    clients: { id: string; kind: string }[];
    trySignIn: { clientId: string };
    localCaFile?: string;
  }>(apiPrefix + appPage);
  const publicId = application.clients.find((client) => client.kind === "public")?.id ?? "";
  const serviceId = application.clients.find((client) => client.kind === "service")?.id ?? "";

  await page.goto(appPage);
  const setUp = page.getByRole("region", { name: "Set-up" });
  const publicClient = setUp.getByRole("listitem").filter({ hasText: "Public client" });
  await publicClient.getByRole("tab", { name: "oidc-client-ts (browser)" }).click();
  await publicClient.getByRole("button", { name: "Copy oidc-client-ts (browser) configuration" }).click();
  const browserConfiguration = await clipboard(page);
  expect(browserConfiguration).toContain(`authority: "${issuer}"`);
  expect(browserConfiguration).toContain(`client_id: "${publicId}"`);
  expect(browserConfiguration).toContain(`redirect_uri: "${uriBase}/callback"`);
  expect(browserConfiguration).toContain(`scope: "openid profile email notes:read"`);

  // A service gets its token with curl: the secret comes from the environment, never from the page.
  const serviceClient = setUp.getByRole("listitem").filter({ hasText: "Service client" });
  await expect(serviceClient.getByRole("tab", { name: "curl", selected: true })).toBeVisible();
  await serviceClient.getByRole("button", { name: "Copy curl configuration" }).click();
  const curl = await clipboard(page);
  expect(curl).toContain(`-u "${serviceId}:$VRATA_CLIENT_SECRET"`);
  expect(curl).toContain("-d scope=notes:read");
  expect(curl).toContain(issuer + routes.OIDCToken.path);
  // The e2e server serves a certificate of its own local CA: the page says where its file is.
  expect(application.localCaFile).toMatch(/ca\.pem$/);
  expect(curl).toContain(`--cacert ${application.localCaFile ?? ""}`);
  await expect(setUp.getByText(application.localCaFile ?? "", { exact: true })).toBeVisible();
  // From the top: a full-page screenshot of a scrolled page draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await checkInBothSchemes(page, "app-setup-en");
  await inLanguage(page, "sl");
  await expect(page.getByRole("region", { name: "Povezovanje aplikacije" })).toContainText(publicId);
  await checkInBothSchemes(page, "app-setup-sl");
  await inLanguage(page, "en");

  // Try signing in: signed in already, the admin picks the identity this app gets, and comes back.
  await page.getByRole("button", { name: "Try signing in" }).click();
  await identityItem(page, username)
    .getByRole("button", { name: /^(Select|Continue)$/ })
    .click();
  await page.getByRole("button", { name: "Redirect now" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Try signing in: ${appName}` })).toBeVisible();
  await expect(page.getByText("Signed in. This is what the app gets.")).toBeVisible();

  const claims = page.getByRole("table", { name: "ID token" });
  const claim = (table: typeof claims, name: string) =>
    table
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name, exact: true }) })
      .getByRole("cell");
  await expect(claim(claims, "aud")).toHaveText(application.trySignIn.clientId);
  await expect(claim(claims, "email")).toHaveText(email);
  const sub = (await claim(claims, "sub").textContent()) ?? "";
  expect(sub).toMatch(/^\w{22}$/);
  const userinfo = page.getByRole("table", { name: "Userinfo" });
  await expect(claim(userinfo, "sub")).toHaveText(sub);
  await expect(claim(userinfo, "email")).toHaveText(email);
  await expect(page.getByRole("list", { name: "Granted scopes" }).getByRole("listitem")).toHaveText([
    "openid",
    "profile",
    "email",
    "notes:read",
  ]);
  // The console signed in again on the way back: the app's page is a link away.
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  await checkInBothSchemes(page, "app-try-result-en");
  await inLanguage(page, "sl");
  await expect(page.getByRole("table", { name: "Žeton ID" })).toContainText(sub);
  await checkInBothSchemes(page, "app-try-result-sl");
  await inLanguage(page, "en");

  // The sub is the one the organization knows the admin's identity by.
  const users = await call<{ items: { id: string }[] }>(
    `${apiPrefix}${pathFor("OrganizationUsers", { id: appPage.split("/")[3] ?? "" })}`,
  );
  expect(users.items.map((user) => user.id)).toContain(sub);
  await page.getByRole("link", { name: "Back to the app" }).click();
  await expect(page.getByRole("region", { name: "Set-up" })).toBeVisible();
});

test("an app with only service clients says there is no sign-in to try", async ({ page }) => {
  await page.goto("/");
  await signUp(page, newName("reports-admin"));
  const call = await consoleCaller(page);
  const appPage = await organizationApp(call, newName("Reports"), {
    clientsService: [{ description: "nightly export", additionalScopes: ["notes:read"] }],
  });
  await page.goto(appPage);
  const setUp = page.getByRole("region", { name: "Set-up" });
  await expect(setUp.getByText(/^This app signs nobody in: it has only service clients/)).toBeVisible();
  await expect(setUp.getByRole("button", { name: "Try signing in" })).toHaveCount(0);
});
