import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import {
  createOrganization,
  newName,
  openIdentity,
  passwordSteps,
  signUp,
  status,
} from "./support/console.ts";
import { newEmail } from "./support/flow.ts";
import { checkAtBothWidths } from "./support/layout-checks.ts";
import { waitForMail } from "./support/mail.ts";

// An admin invites by e-mail address; the person opens the e-mailed link, signs up, and accepts with
// their new identity. The link then works no more.

test.use({ locale: "en-US" });

/** Screenshots and checks of the page in English, then in Slovenian, leaving it in English. */
async function inBothLanguages(page: Page, name: string, shown: (language: "en" | "sl") => Promise<void>) {
  for (const language of ["en", "sl"] as const) {
    await page.evaluate((chosen) => localStorage.setItem("vrata.locale", chosen), language);
    await page.reload();
    await shown(language);
    await checkAtBothWidths(page, `${name}-${language}`);
  }
  await page.evaluate(() => localStorage.setItem("vrata.locale", "en"));
  await page.reload();
}

/** The path of the invitation link in the e-mail. */
function linkIn(text: string): string {
  const match = /https:\/\/\S+\/invitation\/[\w-]{43}/.exec(text);
  if (!match) throw new Error("no invitation link in the e-mail");
  return new URL(match[0]).pathname;
}

test("a person invited by e-mail signs up through the link and accepts with their identity", async ({
  page,
  browser,
}) => {
  // Two people sign up and every page is checked in both languages: longer than most tests.
  test.slow();
  await page.goto("/");
  const inviter = newName("inviter");
  await signUp(page, inviter);
  const organizationName = newName("Mail club");
  await createOrganization(page, organizationName);
  const address = newEmail("invited");

  const form = page.getByRole("region", { name: "Invite people" });
  await form.getByLabel("Whom to invite").selectOption({ label: "A person, by e-mail address" });
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Role").selectOption({ label: "Member" });
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(status(page, "Invitation sent.")).toBeVisible();
  const pending = page.getByRole("region", { name: "Pending invitations" }).getByRole("listitem");
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText(address);
  await expect(pending).toContainText("Invited by e-mail");
  await inBothLanguages(page, "invite-by-email-organization", async (language) => {
    const whom = language === "en" ? "Whom to invite" : "Koga želite povabiti";
    await page.getByLabel(whom).selectOption("address");
    await expect(page.getByText(address)).toBeVisible();
  });

  const mail = await waitForMail(address);
  expect(mail.subject).toBe(`You are invited to “${organizationName}” on Vrata`);
  expect(mail.text).toContain(`${inviter} invites you to join the organization “${organizationName}”`);
  const link = linkIn(mail.text);

  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
  try {
    const person = await context.newPage();
    // Not signed in, the link sends the person to sign in or sign up, and back.
    await person.goto(link);
    await expect(person).toHaveURL(/\/auth\/[^/?#]+$/);
    const username = newName("invitee");
    await passwordSteps(person, username);
    await expect(person).toHaveURL(new RegExp(`${link}$`));
    const heading = person.getByRole("heading", { level: 1, name: `Invitation to ${organizationName}` });
    await expect(heading).toBeVisible();
    await expect(
      person.getByText(`${inviter} invites one of your identities to become a member.`),
    ).toBeVisible();
    await inBothLanguages(person, "invitation-link", async (language) => {
      const title = language === "en" ? "Invitation to" : "Povabilo v organizacijo";
      await expect(
        person.getByRole("heading", { level: 1, name: `${title} ${organizationName}` }),
      ).toBeVisible();
      await expect(person.getByRole("radio", { name: username })).toBeChecked();
    });

    await person.getByRole("button", { name: "Accept" }).click();
    await expect(person.getByRole("heading", { level: 1, name: "Invitation accepted" })).toBeVisible();
    await expect(person.getByText(`${username} is now in ${organizationName}.`)).toBeVisible();

    await person.getByRole("link", { name: "Open the organization" }).click();
    await expect(person.getByRole("heading", { level: 1, name: organizationName })).toBeVisible();
    await expect(
      person
        .getByRole("region", { name: "Added identities" })
        .getByRole("listitem")
        .filter({ hasText: username }),
    ).toHaveCount(1);
    await page.reload();
    await expect(page.getByText("There are no pending invitations.")).toBeVisible();

    // The link works once.
    await person.goto(link);
    await expect(
      person.getByRole("heading", { level: 1, name: "This invitation was answered already" }),
    ).toBeVisible();
    await inBothLanguages(person, "invitation-link-used", async (language) => {
      const title =
        language === "en" ? "This invitation was answered already" : "Na to povabilo je že bilo odgovorjeno";
      await expect(person.getByRole("heading", { level: 1, name: title })).toBeVisible();
    });
  } finally {
    await context.close();
  }
});

test("a withdrawn invitation's link says so", async ({ page, browser }) => {
  await page.goto("/");
  await signUp(page, newName("inviter"));
  await createOrganization(page, newName("Second thoughts"));
  const address = newEmail("withdrawn");
  const form = page.getByRole("region", { name: "Invite people" });
  await form.getByLabel("Whom to invite").selectOption("address");
  await form.getByLabel("E-mail address").fill(address);
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(status(page, "Invitation sent.")).toBeVisible();
  await page.getByRole("button", { name: `Withdraw the invitation of ${address}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Withdraw" }).click();
  await expect(status(page, "Invitation withdrawn.")).toBeVisible();

  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
  try {
    const person = await context.newPage();
    await person.goto(linkIn((await waitForMail(address)).text));
    await passwordSteps(person, newName("late"));
    await expect(
      person.getByRole("heading", { level: 1, name: "This invitation was withdrawn" }),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test("a person who already has an account accepts with an identity made for the organization", async ({
  page,
  browser,
}) => {
  await page.goto("/");
  await signUp(page, newName("inviter"));
  const organizationName = newName("Fresh start");
  await createOrganization(page, organizationName);
  const address = newEmail("fresh");
  const form = page.getByRole("region", { name: "Invite people" });
  await form.getByLabel("Whom to invite").selectOption("address");
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Role").selectOption({ label: "Admin" });
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(status(page, "Invitation sent.")).toBeVisible();

  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
  try {
    const person = await context.newPage();
    await person.goto("/");
    await signUp(person, newName("existing"));
    await person.goto(linkIn((await waitForMail(address)).text));
    await expect(person.getByText(/invites one of your identities to become an admin\./)).toBeVisible();
    await person.getByRole("radio", { name: "A new identity" }).check();
    const fresh = newName("for-the-club");
    await person
      .getByRole("region", { name: "The new identity" })
      .getByLabel("Username", { exact: true })
      .fill(fresh);
    await person.getByRole("button", { name: "Create and accept" }).click();
    await expect(person.getByRole("heading", { level: 1, name: "Invitation accepted" })).toBeVisible();
    await expect(person.getByText(`${fresh} is now in ${organizationName}.`)).toBeVisible();

    await page.reload();
    await expect(page.getByRole("region", { name: "Admins" }).getByRole("listitem")).toHaveCount(2);
  } finally {
    await context.close();
  }
});

test("an identity's ID, which people share to be invited, has a Copy button", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  const username = newName("sharer");
  await signUp(page, username);
  const identityId = await openIdentity(page, username);
  await expect(page.getByText("To be invited to an organization, give its admins this ID.")).toBeVisible();
  await page.getByRole("button", { name: "Copy ID" }).click();
  await expect(status(page, "Copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(identityId);
  await inBothLanguages(page, "identity-copy-id", async (language) => {
    await expect(
      page.getByRole("button", { name: language === "en" ? "Copy ID" : "Kopiraj ID" }),
    ).toBeVisible();
  });
});
