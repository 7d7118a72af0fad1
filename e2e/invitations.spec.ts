import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { createOrganization, invite, newName, openIdentity, signUp, status } from "./support/console.ts";

// An organization's admin invites another person's identity; nothing changes until that person
// accepts on the identity's page.

test.use({ locale: "en-US" });

test("an invited identity becomes an admin only when its person accepts", async ({ page, browser }) => {
  await page.goto("/");
  await signUp(page, newName("inviter"));
  const organizationName = newName("Organization");
  const organizationId = await createOrganization(page, organizationName);
  const admins = page.getByRole("region", { name: "Admins" });
  await expect(admins.getByRole("listitem")).toHaveCount(1);
  await expect(admins.getByText("you", { exact: true })).toBeVisible();

  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
  try {
    const person = await context.newPage();
    await person.goto("/");
    const username = newName("invitee");
    await signUp(person, username);
    const identityId = await openIdentity(person, username);
    const invitations = person.getByRole("region", { name: "Invitations" });
    await expect(invitations.getByText("There are no invitations for this identity.")).toBeVisible();

    await invite(page, identityId, "Admin");
    await invite(page, identityId, "Member");
    const pending = page.getByRole("region", { name: "Pending invitations" }).getByRole("listitem");
    await expect(pending).toHaveCount(2);
    await expect(pending.filter({ hasText: "admin" })).toContainText(identityId);
    await expect(admins.getByRole("listitem")).toHaveCount(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await person.reload();
    const asAdmin = invitations
      .getByRole("listitem")
      .filter({ hasText: "Invites this identity to become an admin." });
    await expect(asAdmin.getByRole("link", { name: organizationName })).toBeVisible();
    expect(await seriousAccessibilityViolations(person)).toEqual([]);
    await asAdmin.getByRole("button", { name: "Accept" }).click();
    await expect(status(person, "Invitation accepted.")).toBeVisible();
    await invitations
      .getByRole("listitem")
      .filter({ hasText: "Invites this identity to become a member." })
      .getByRole("button", { name: "Decline" })
      .click();
    await expect(status(person, "Invitation declined.")).toBeVisible();
    await expect(invitations.getByText("There are no invitations for this identity.")).toBeVisible();

    // The person now manages the organization; it did not become a member.
    await person.goto(`/o/${organizationId}`);
    await expect(person.getByRole("region", { name: "Invite people" })).toBeVisible();
    await expect(person.getByRole("region", { name: "Added identities" }).getByRole("listitem")).toHaveCount(
      0,
    );

    await page.reload();
    await expect(admins.getByRole("listitem")).toHaveCount(2);
    await expect(admins.getByRole("listitem").filter({ hasText: identityId })).toBeVisible();
    await expect(page.getByText("There are no pending invitations.")).toBeVisible();
  } finally {
    await context.close();
  }
});
