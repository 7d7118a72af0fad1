import type { Browser, Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { newName, openIdentity, password, status } from "./support/console.ts";
import { identityItem } from "./support/flow.ts";
import { checkPage, settle } from "./support/layout-checks.ts";
import { flowLabels, type FlowLabels } from "./support/labels.ts";

// A person shares an identity with another person by username: first to use, then to manage. The
// other person picks it in the identity step, reads it but cannot change it until made an admin.

/** The words of the identity page that these tests use, in each language. */
const words = {
  en: {
    locale: "en-US",
    users: "Users",
    admins: "Admins",
    addUser: "Add a user by username or e-mail address",
    addAdmin: "Add an admin by username or e-mail address",
    update: "Save changes",
    saveUsers: "Save users",
    saveAdmins: "Save admins",
    usersUpdated: "Users updated successfully.",
    adminsUpdated: "Admins updated successfully.",
    creator: "creator",
    useOnly: "You may sign in with this identity, but only its admins can change it.",
    updateIdentity: "Update identity",
    description: "Description",
    identityUpdated: "Identity updated successfully.",
    remove: "Remove",
  },
  sl: {
    locale: "sl-SI",
    users: "Uporabniki",
    admins: "Skrbniki",
    addUser: "Dodaj uporabnika z uporabniškim imenom ali e-poštnim naslovom",
    addAdmin: "Dodaj skrbnika z uporabniškim imenom ali e-poštnim naslovom",
    update: "Shrani spremembe",
    saveUsers: "Shrani uporabnike",
    saveAdmins: "Shrani skrbnike",
    usersUpdated: "Uporabniki so uspešno posodobljeni.",
    adminsUpdated: "Skrbniki so uspešno posodobljeni.",
    creator: "ustvarjalec",
    useOnly: "S to identiteto se lahko prijavite, spreminjajo pa jo lahko le njeni skrbniki.",
    updateIdentity: "Posodobi identiteto",
    description: "Opis",
    identityUpdated: "Identiteta je bila uspešno posodobljena.",
    remove: "Odstrani",
  },
};
type Language = keyof typeof words;

/** Signs in (or up) from the home page up to the identity step, in the page's language. */
async function toIdentityStep(page: Page, labels: FlowLabels, username: string): Promise<void> {
  await page.goto("/");
  await page.getByRole("button", { name: labels.signIn }).first().click();
  await page.getByLabel(labels.identifier, { exact: true }).fill(username);
  await page.getByRole("button", { name: labels.next }).click();
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: labels.submit }).click();
}

/** Continues with the identity of that name and returns to the console, signed in with it. */
async function selectIdentity(page: Page, labels: FlowLabels, name: string): Promise<void> {
  await identityItem(page, name).getByRole("button", { name: labels.select }).click();
  await page.getByRole("button", { name: labels.redirectNow }).click();
  await expect(page.getByRole("button", { name: labels.accountMenu })).toBeVisible();
}

async function newPerson(browser: Browser, language: Language) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: words[language].locale });
  return { context, page: await context.newPage() };
}

/** On the identity's page, its admin adds the person to its users or admins by username. */
async function share(page: Page, language: Language, role: "users" | "admins", username: string) {
  const w = words[language];
  const region = page.getByRole("region", { name: role === "users" ? w.users : w.admins });
  await region.getByLabel(role === "users" ? w.addUser : w.addAdmin).fill(username);
  await region
    .getByRole("button", { name: role === "users" ? w.saveUsers : w.saveAdmins, exact: true })
    .click();
  await expect(status(page, role === "users" ? w.usersUpdated : w.adminsUpdated)).toBeVisible();
  return region;
}

for (const language of ["en", "sl"] as const) {
  test(`an identity shared by username is used, then managed, by the other person (${language})`, async ({
    browser,
  }) => {
    // Three sign-ins by two people.
    test.slow();
    const w = words[language];
    const labels = flowLabels[language];
    const owner = await newPerson(browser, language);
    const other = await newPerson(browser, language);
    try {
      const ownerName = newName("sharer");
      const otherName = newName("sharee");
      await toIdentityStep(owner.page, labels, ownerName);
      await selectIdentity(owner.page, labels, ownerName);
      await toIdentityStep(other.page, labels, otherName);
      await selectIdentity(other.page, labels, otherName);

      // The owner's identity page lists its creator among the admins, and nobody else may use it.
      const identityId = await openIdentity(owner.page, ownerName);
      const admins = owner.page.getByRole("region", { name: w.admins });
      await expect(admins.getByRole("listitem")).toHaveCount(1);
      await expect(admins.getByRole("listitem").getByText(w.creator, { exact: true })).toBeVisible();
      // The last admin cannot be removed.
      await expect(admins.getByRole("button", { name: w.remove })).toBeDisabled();

      const users = await share(owner.page, language, "users", otherName);
      await expect(users.getByRole("listitem").filter({ hasText: otherName })).toBeVisible();
      expect(await seriousAccessibilityViolations(owner.page)).toEqual([]);

      // The other person signs in again: the identity step offers the shared identity, and they pick it.
      const again = await newPerson(browser, language);
      try {
        await toIdentityStep(again.page, labels, otherName);
        await expect(identityItem(again.page, otherName)).toBeVisible();
        await selectIdentity(again.page, labels, ownerName);
        await again.page.goto(`/i/${identityId}`);
        await expect(again.page.getByRole("heading", { level: 1, name: ownerName })).toBeVisible();
        await expect(again.page.getByText(w.useOnly)).toBeVisible();
        await expect(again.page.getByRole("region", { name: w.updateIdentity })).toHaveCount(0);
        await expect(again.page.getByRole("region", { name: w.users })).toHaveCount(0);

        // Made an admin, they can change it.
        await share(owner.page, language, "admins", otherName);
        await expect(admins.getByRole("listitem")).toHaveCount(2);
        await expect(users.getByRole("listitem")).toHaveCount(0);
        await expect(admins.getByRole("button", { name: w.remove }).first()).toBeEnabled();
        for (const width of [390, 1280]) {
          await owner.page.setViewportSize({ width, height: 900 });
          // From the top, where the header sits in the page rather than over it.
          await owner.page.evaluate(() => window.scrollTo(0, 0));
          await settle(owner.page);
          await checkPage(owner.page, `identity-shared-${width}-${language}`);
        }

        await again.page.reload();
        const form = again.page.getByRole("region", { name: w.updateIdentity });
        await form.getByLabel(w.description).fill(`Shared with ${otherName}`);
        await form.getByRole("button", { name: w.update, exact: true }).click();
        await expect(status(again.page, w.identityUpdated)).toBeVisible();
        await expect(again.page.getByText(`Shared with ${otherName}`).first()).toBeVisible();
      } finally {
        await again.context.close();
      }
    } finally {
      await owner.context.close();
      await other.context.close();
    }
  });
}
