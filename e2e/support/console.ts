import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { OrganizationUpdate } from "../../src/common/api/organization.ts";
import { apiPath, apiPrefix, pathFor } from "../../src/common/routes.ts";
import { expect } from "../fixtures.ts";
import { identityItem } from "./flow.ts";
import type { RelyingParty } from "./relyingParty.ts";

// The console as a signed-in person uses it, in English.

export const password = "correct horse battery";
export const newName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/**
 * On the flow page: the username and password, the identity of that name (Select, or Continue where it
 * is the one last chosen for the app), and back to the app.
 */
export async function passwordSteps(page: Page, username: string): Promise<void> {
  await page.getByLabel("Username or e-mail address", { exact: true }).fill(username);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Password or passphrase", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Submit" }).click();
  await identityItem(page, username)
    .getByRole("button", { name: /^(Select|Continue)$/ })
    .click();
  await page.getByRole("button", { name: "Redirect now" }).click();
}

/** From the current page, a new account with a password, its identity chosen, back to the console. */
export async function signUp(page: Page, username: string): Promise<void> {
  await page.getByRole("button", { name: "Sign in or sign up" }).first().click();
  await passwordSteps(page, username);
  await expect(accountMenu(page)).toBeVisible();
}

/** The header's button that opens the signed-in identity's menu: there once the console is signed in. */
export const accountMenu = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Account menu" });

/** A link of the console's main navigation. */
export const navLink = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

export const status = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

/** A new organization, named by `name`; its page is left open. Returns its ID. */
export async function createOrganization(page: Page, name: string): Promise<string> {
  await page.goto("/o");
  await page.getByRole("link", { name: "Create organization" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

/** Opens the page of the signed-in person's identity of that username; returns the identity's ID. */
export async function openIdentity(page: Page, username: string): Promise<string> {
  await page.goto("/i");
  await page.getByRole("link", { name: username, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: username })).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

/**
 * On an organization's page, its admin invites the identity in the role, by the ID its person shared
 * (or, for an identity of the admin's own, found by that ID).
 */
export async function invite(page: Page, identityId: string, role: "Admin" | "Member"): Promise<void> {
  const form = page.getByRole("region", { name: "Invite people" });
  await form.getByRole("combobox", { name: "Identity" }).fill(identityId);
  await form.getByRole("listbox").getByRole("option").first().click();
  await form.getByLabel("Role").selectOption({ label: role });
  await form.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(status(page, "Invitation sent.")).toBeVisible();
}

/** On a template's page, saves its changes and waits for the confirmation. */
export async function saveTemplate(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(status(page, "Application template updated successfully.")).toBeVisible();
}

/** A new template, named by `name`, and its page left open; returns its ID. */
export async function createEmptyTemplate(page: Page, name: string): Promise<string> {
  await page.goto("/a");
  await page.getByRole("link", { name: "Create application template" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

/**
 * A new template with a `uriBase` variable and one public client redirecting to `{uriBase}/callback`,
 * saved at once; its page is left open. Returns its ID.
 */
export async function createTemplate(page: Page, name: string): Promise<string> {
  const templateId = await createEmptyTemplate(page, name);
  const variable = page.getByRole("region", { name: "Variables" }).getByRole("group", { name: "Variable 1" });
  await page.getByRole("button", { name: "Add variable" }).click();
  await variable.getByLabel("Name").fill("uriBase");
  await variable.getByLabel("Description").fill("Where the app is");

  await page.getByRole("button", { name: "Add public client" }).click();
  const client = page.getByRole("group", { name: "Public client 1" });
  // A uriBase variable gives new clients the default redirect of reference §9.2.
  await expect(client.getByLabel("OIDC redirect URI templates")).toHaveValue("{uriBase}/oidc/redirect");
  await client.getByLabel("OIDC redirect URI templates").fill("{uriBase}/callback");
  await saveTemplate(page);
  await expect(client.getByRole("button", { name: "Copy client template ID" })).toBeVisible();
  return templateId;
}

/** A new organization that adds the template with the uriBase; returns the public client's ID. */
export async function createOrganizationWithApp(
  page: Page,
  templateName: string,
  uriBase: string,
): Promise<string> {
  await createOrganization(page, newName("Organization"));

  const available = page.getByRole("region", { name: "Available applications" });
  await available.getByRole("button", { name: `Add: ${templateName}` }).click();
  await available.getByLabel("uriBase").fill(uriBase);
  await available.getByRole("button", { name: "Add", exact: true }).click();
  await expect(
    status(page, `${templateName} added. Its clients are under Added applications.`),
  ).toBeVisible();
  await expect(
    available.getByRole("listitem").filter({ hasText: templateName }).getByText("added", { exact: true }),
  ).toBeVisible();

  const application = page
    .getByRole("region", { name: "Added applications" })
    .getByRole("listitem")
    .filter({ hasText: templateName });
  await expect(application.getByText("Public client ID")).toBeVisible();
  const clientId =
    (await application.getByRole("definition").first().locator(".font-mono").textContent()) ?? "";
  expect(clientId).not.toBe("");
  return clientId;
}

/** Calls the console's API as the signed-in person: a GET, or a POST when `data` is given. */
export type ConsoleCaller = <T>(url: string, data?: object) => Promise<T>;

/**
 * The console's API with the signed-in person's token, taken from the console's own request: the
 * token lives in the page's memory only.
 */
export async function consoleCaller(page: Page): Promise<ConsoleCaller> {
  const listed = page.waitForRequest((request) => request.url().endsWith(apiPath("IdentityList")));
  await page.goto(pathFor("IdentityList"));
  const authorization = (await (await listed).allHeaders()).authorization ?? "";
  expect(authorization).toMatch(/^Bearer /);
  return async <T>(url: string, data?: object): Promise<T> => {
    const options = { headers: { authorization }, ...(data ? { data } : {}) };
    const response = await (data ? page.request.post(url, options) : page.request.get(url, options));
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
}

/**
 * Through the console's API: a new organization whose app (of a new template named `appName`) is the
 * relying party, which then uses the app's public client; `settings` are more of the organization's
 * fields (its sign-in policy). Returns the organization's name.
 */
export async function addRelyingPartyApp(
  call: ConsoleCaller,
  issuer: string,
  relyingParty: RelyingParty,
  appName: string,
  settings: Pick<OrganizationUpdate, "signInPolicy"> = {},
): Promise<string> {
  const template = await call<{ id: string }>(apiPath("ApplicationTemplateCreate"), {
    name: appName,
    variables: [{ name: "uriBase" }],
    clientsPublic: [
      {
        redirectUriTemplates: ["{uriBase}/callback"],
        postLogoutRedirectUriTemplates: ["{uriBase}/signed-out"],
      },
    ],
  });
  const { id } = await call<{ id: string }>(apiPath("OrganizationCreate"), {
    name: newName("Organization"),
  });
  const organization = await call<{ version: number; name: string }>(
    apiPrefix + pathFor("OrganizationGet", { id }),
  );
  const updated = await call<{ applications: { clientsPublic: { id: string }[] }[] }>(
    apiPrefix + pathFor("OrganizationUpdate", { id }),
    {
      version: organization.version,
      name: organization.name,
      admins: [],
      applications: [
        { templateId: template.id, active: true, values: [{ name: "uriBase", value: relyingParty.base }] },
      ],
      ...settings,
    },
  );
  await relyingParty.setClient(issuer, updated.applications[0]?.clientsPublic[0]?.id ?? "");
  return organization.name;
}
