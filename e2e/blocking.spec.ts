import type { Browser, Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import {
  createOrganizationWithApp,
  createTemplate,
  newName,
  password,
  signUp,
  status,
} from "./support/console.ts";
import { flowLabels, type FlowLabels } from "./support/labels.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";

// An organization's admin blocks a member, who then meets the block when signing in to the
// organization's app; the admin lifts it and the member gets back in.

/** A person's own browser, in the language of `locale`. */
async function personBrowser(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale });
  return context.newPage();
}

/** Through the relying party's /login, with the password, up to the identity step. */
async function toIdentityStep(
  person: Page,
  relyingParty: RelyingParty,
  username: string,
  labels: FlowLabels,
) {
  await person.goto(`${relyingParty.base}/login`);
  await person.getByLabel(labels.identifier, { exact: true }).fill(username);
  await person.getByRole("button", { name: labels.next }).click();
  await person.getByLabel(labels.password, { exact: true }).fill(password);
  await person.getByRole("button", { name: labels.submit }).click();
  await expect(person.getByRole("button", { name: labels.create })).toBeVisible();
}

/** Selects the identity and goes back to the app; returns the `sub` the app got. */
async function selectAndReturn(person: Page, name: string, labels: FlowLabels): Promise<string> {
  await person
    .getByRole("listitem")
    .filter({ hasText: name })
    .getByRole("button", { name: labels.select })
    .click();
  await person.getByRole("button", { name: labels.redirectNow }).click();
  await expect(person.locator("#claims")).toBeVisible();
  const claims = JSON.parse((await person.locator("#claims").textContent()) ?? "{}") as { sub?: string };
  return claims.sub ?? "";
}

/** An admin with an organization whose app the relying party is; returns the organization's ID. */
async function organizationWithApp(page: Page, relyingParty: RelyingParty, baseURL: string): Promise<string> {
  await page.goto("/");
  await signUp(page, newName("admin"));
  const templateName = newName("Template");
  await createTemplate(page, templateName);
  const clientId = await createOrganizationWithApp(page, templateName, relyingParty.base);
  await relyingParty.setClient(baseURL, clientId);
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

test.describe("blocking a member", () => {
  test.use({ locale: "en-US" });

  test("an admin blocks a member's identity, then their account, and lifts the block", async ({
    page,
    browser,
    baseURL,
  }) => {
    // Four sign-ins in three browsers.
    const relyingParty = await startRelyingParty();
    const labels = flowLabels.en;
    try {
      const organizationId = await organizationWithApp(page, relyingParty, baseURL ?? "");
      const member = newName("member");
      const person = await personBrowser(browser, "en-US");
      await toIdentityStep(person, relyingParty, member, labels);
      const sub = await selectAndReturn(person, member, labels);
      await person.context().close();

      // The admin opens the member as the organization sees them and blocks only this identity.
      await page.goto(`/o/identity/${organizationId}/${sub}`);
      await page.getByRole("link", { name: "Block user" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Block user" })).toBeVisible();
      await expect(page.getByText(sub)).toBeVisible();
      await expect(page.getByRole("radio", { name: /^Only this identity/ })).toBeChecked();
      await page.getByLabel("Note for organization admins").fill("Posted spam twice");
      await page.getByLabel("Note to the user").fill("Write to support to get back in");
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Block", exact: true }).click();
      await page
        .getByRole("dialog", { name: `Block ${member}?` })
        .getByRole("button", { name: "Block", exact: true })
        .click();
      await expect(status(page, "User blocked successfully.")).toBeVisible();
      const record = page.getByRole("region", { name: "Block in force" });
      await expect(record).toContainText("Posted spam twice");
      await expect(record).toContainText("Write to support to get back in");

      // The member sees the identity blocked with the note, and goes on with a new identity.
      const blocked = await personBrowser(browser, "en-US");
      await toIdentityStep(blocked, relyingParty, member, labels);
      const group = blocked.getByRole("region", { name: "Blocked identities" });
      await expect(group.getByRole("listitem").filter({ hasText: member })).toContainText(
        "Note from the organization: Write to support to get back in",
      );
      await expect(group.getByRole("button", { name: labels.select })).toHaveCount(0);
      await blocked.getByRole("button", { name: labels.create }).click();
      const other = newName("second");
      await blocked.getByLabel("Username").fill(other);
      await blocked.getByRole("button", { name: "Create", exact: true }).click();
      expect(await selectAndReturn(blocked, other, labels)).not.toBe(sub);
      await blocked.context().close();

      // Lifted, the member signs in with the identity again; blocked as an account, with none.
      await page.getByRole("button", { name: "Unblock" }).click();
      await page
        .getByRole("dialog", { name: `Unblock ${member}?` })
        .getByRole("button", { name: "Unblock" })
        .click();
      await expect(status(page, "User unblocked successfully.")).toBeVisible();
      const back = await personBrowser(browser, "en-US");
      await toIdentityStep(back, relyingParty, member, labels);
      expect(await selectAndReturn(back, member, labels)).toBe(sub);
      await back.context().close();

      await page.getByRole("radio", { name: /^This identity and all other identities/ }).check();
      await page.getByLabel("Note to the user").fill("Your account is blocked");
      await page.getByRole("button", { name: "Block", exact: true }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Block", exact: true }).click();
      await expect(status(page, "User blocked successfully.")).toBeVisible();

      const account = await personBrowser(browser, "en-US");
      await account.goto(`${relyingParty.base}/login`);
      await account.getByLabel(labels.identifier, { exact: true }).fill(member);
      await account.getByRole("button", { name: labels.next }).click();
      await account.getByLabel(labels.password, { exact: true }).fill(password);
      await account.getByRole("button", { name: labels.submit }).click();
      const all = account.getByRole("region", { name: "Blocked identities" }).getByRole("listitem");
      await expect(all).toHaveCount(2);
      await expect(account.getByText(/This organization has blocked you/)).toBeVisible();
      await expect(account.getByRole("button", { name: labels.create })).toHaveCount(0);
      await expect(account.getByRole("button", { name: labels.select })).toHaveCount(0);
      await account.context().close();

      // The organization's users list finds the member by name, blocked; its activity shows each step.
      await page.goto(`/o/users/${organizationId}`);
      await page.getByLabel("Search by name or e-mail").fill(member);
      const rows = page.getByRole("main").locator("ul > li");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("blocked");
      await page.goto(`/o/activity/${organizationId}`);
      const steps = page.getByRole("main").locator("ol > li");
      await expect(steps.filter({ hasText: `The identity ${member} was blocked` })).toHaveCount(2);
      await expect(steps.filter({ hasText: `The identity ${member} was unblocked` })).toHaveCount(1);
    } finally {
      await relyingParty.close();
    }
  });
});

test.describe("blocking a member in Slovenian", () => {
  test.use({ locale: "en-US" });

  test("the admin blocks in Slovenian and the member reads the note in Slovenian", async ({
    page,
    browser,
    baseURL,
  }) => {
    const relyingParty = await startRelyingParty();
    const labels = flowLabels.sl;
    try {
      const organizationId = await organizationWithApp(page, relyingParty, baseURL ?? "");
      const member = newName("clan");
      const person = await personBrowser(browser, "sl-SI");
      await toIdentityStep(person, relyingParty, member, labels);
      const sub = await selectAndReturn(person, member, labels);
      await person.context().close();

      await page.goto(`/o/block/${organizationId}/${sub}`);
      await page.getByLabel("Language").selectOption("sl");
      await expect(page.getByRole("heading", { level: 1, name: "Blokiraj uporabnika" })).toBeVisible();
      await page.getByLabel("Sporočilo uporabniku").fill("Pišite podpori");
      await page.getByRole("button", { name: "Blokiraj", exact: true }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Blokiraj", exact: true }).click();
      await expect(status(page, "Uporabnik je bil uspešno blokiran.")).toBeVisible();

      const blocked = await personBrowser(browser, "sl-SI");
      await toIdentityStep(blocked, relyingParty, member, labels);
      await expect(
        blocked.getByRole("region", { name: "Blokirane identitete" }).getByRole("listitem"),
      ).toContainText("Sporočilo organizacije: Pišite podpori");
      await blocked.context().close();
    } finally {
      await relyingParty.close();
    }
  });
});
