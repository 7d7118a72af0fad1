import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { accountMenu, createOrganization, navLink, newName, password, signUp } from "./support/console.ts";
import { identityItem } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";

// The console's frame: its navigation at phone and desktop widths, the signed-in identity's menu
// (switching identity, signing out), the notice on documents another identity of the person
// administers, breadcrumbs, page titles and busy buttons.

const main = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** How far the page reaches beyond the window's width (0 when nothing overflows sideways). */
const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const { en: english, sl: slovenian } = flowLabels;

/** The console's flow, from the page it opened, for a person with a password, choosing an identity. */
async function signInChoosing(page: Page, username: string, identity: string, labels = english) {
  await page.getByLabel(labels.identifier, { exact: true }).fill(username);
  await page.getByRole("button", { name: labels.next }).click();
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: labels.submit }).click();
  await identityItem(page, identity).getByRole("button", { name: labels.select }).click();
  await page.getByRole("button", { name: labels.redirectNow }).click();
  await expect(page.getByRole("button", { name: labels.accountMenu })).toBeVisible();
}

test.describe("console layout in English", () => {
  test.use({ locale: "en-US" });

  for (const width of [390, 1280]) {
    test(`the navigation leads to each section at ${width} px, marks it and never overflows`, async ({
      page,
      siteContext,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/o");
      // Start-up first tries a silent sign-in, a round trip to the server.
      await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
      await expect(page).toHaveTitle(`Organizations · ${siteContext.title}`);
      const menuButton = main(page).getByRole("button", { name: "Menu", exact: true });
      if (width < 1024) {
        // On a phone the sections are behind the menu button.
        await expect(navLink(page, "Application templates")).toBeHidden();
        await expect(menuButton).toHaveAttribute("aria-expanded", "false");
        await menuButton.click();
        await expect(menuButton).toHaveAttribute("aria-expanded", "true");
      } else {
        await expect(menuButton).toBeHidden();
      }
      await expect(navLink(page, "Organizations")).toHaveAttribute("aria-current", "page");
      await expect(navLink(page, "Home")).not.toHaveAttribute("aria-current", "page");
      // Only signed-in people have identities and activity.
      await expect(navLink(page, "Identities")).toHaveCount(0);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      await navLink(page, "Application templates").click();
      await expect(page.getByRole("heading", { level: 1, name: "Application templates" })).toBeVisible();
      await expect(page).toHaveTitle(`Application templates · ${siteContext.title}`);
      if (width < 1024) {
        // Choosing a section closes the menu.
        await expect(menuButton).toHaveAttribute("aria-expanded", "false");
        await menuButton.click();
      }
      await expect(navLink(page, "Application templates")).toHaveAttribute("aria-current", "page");
      expect(await horizontalOverflow(page)).toBe(0);

      await page.goto("/");
      await expect(page).toHaveTitle(siteContext.title);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  }

  test("the signed-in identity's menu switches identity and signs out; documents of the other identity say so", async ({
    page,
    siteContext,
  }) => {
    const username = newName("layout");
    const work = newName("work");
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in or sign up" }).click();
    await signInChoosing(page, username, username);
    await expect(accountMenu(page)).toContainText(username);
    await expect(navLink(page, "Identities")).toBeVisible();
    await expect(navLink(page, "Activity")).toBeVisible();

    // Creating shows the button busy until the answer comes.
    await navLink(page, "Organizations").click();
    await page.getByRole("link", { name: "Create organization" }).click();
    await expect(page).toHaveTitle(`Create organization · ${siteContext.title}`);
    const organization = newName("Layout organization");
    await page.getByLabel("Name", { exact: true }).fill(organization);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let authorization = "";
    await page.route("**/api/o/create", async (route) => {
      authorization = (await route.request().allHeaders()).authorization ?? "";
      await answered;
      await route.continue();
    });
    const create = page.getByRole("button", { name: "Create", exact: true });
    await create.click();
    await expect(create).toHaveAttribute("aria-busy", "true");
    await expect(create).toBeDisabled();
    answer();
    await expect(page.getByRole("heading", { level: 1, name: organization })).toBeVisible();
    await expect(page).toHaveTitle(`${organization} · ${siteContext.title}`);
    const organizationUrl = page.url();
    const breadcrumbs = page.getByRole("navigation", { name: "Breadcrumbs" });
    await expect(breadcrumbs.getByRole("link", { name: "Organizations" })).toHaveAttribute("href", "/o");
    await expect(breadcrumbs.getByText(organization)).toHaveAttribute("aria-current", "page");
    // Its admin is not told anything.
    await expect(page.getByRole("note")).toHaveCount(0);

    // A second identity of the same person.
    await page.goto("/i/create");
    await page.getByLabel("Username", { exact: true }).fill(work);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: work })).toBeVisible();

    // The organization invites it as a member (through the API, with the console's token). Accepting
    // says so until the next edit on the page.
    const workId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const organizationId = new URL(organizationUrl).pathname.split("/").at(-1) ?? "";
    const invited = await page.request.post(`/api/o/invite/${organizationId}`, {
      headers: { authorization },
      data: { identityId: workId, role: "member" },
    });
    expect(invited.ok()).toBe(true);
    await page.reload();
    await page.getByRole("button", { name: "Accept" }).click();
    const accepted = page.getByRole("status").filter({ hasText: "Invitation accepted." });
    await expect(accepted).toBeVisible();
    await page.getByLabel("Full name").fill("Ada at work");
    await expect(accepted).toHaveCount(0);
    await page.getByLabel("Full name").fill("");

    // The menu names the signed-in identity and closes with Escape, back on its button.
    await accountMenu(page).click();
    await expect(page.getByText("Signed in as")).toBeVisible();
    await expect(accountMenu(page)).toHaveAttribute("aria-expanded", "true");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(page.getByText("Signed in as")).toBeHidden();
    await expect(accountMenu(page)).toBeFocused();

    // Switching identity asks the person again, so that the identity step is shown.
    await accountMenu(page).click();
    const authorize = page.waitForRequest((request) => request.url().includes("/auth/oidc/authorize"));
    await page.getByRole("button", { name: "Switch identity" }).click();
    expect(new URL((await authorize).url()).searchParams.get("prompt")).toBe("login");
    await expect(page).toHaveURL(/\/auth\/[^/?#]+$/);
    await signInChoosing(page, username, work);
    await expect(accountMenu(page)).toContainText(work);

    // The organization is read-only for this identity, and the page says which identity can change it.
    await navLink(page, "Organizations").click();
    await page.getByRole("link", { name: organization }).click();
    await expect(page).toHaveURL(organizationUrl);
    const notice = page.getByRole("note");
    await expect(notice).toContainText(`You are viewing this as ${work}; only its admins can change it.`);
    await expect(notice).toContainText(`Your identity ${username} is one of its admins`);
    await expect(notice.getByRole("button", { name: "Switch identity" })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Signing out from the menu: the sign-in button takes its place and gets the focus.
    await accountMenu(page).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    const signIn = main(page).getByRole("button", { name: "Sign in or sign up" });
    await expect(signIn).toBeFocused();
    await expect(page.getByRole("note")).toHaveCount(0);
    await expect(navLink(page, "Identities")).toHaveCount(0);
  });

  test("leaving a page with an unsaved edit asks first", async ({ page }) => {
    await page.goto("/");
    await signUp(page, newName("unsaved"));
    const name = newName("Unsaved organization");
    await createOrganization(page, name);
    const description = page.getByRole("region", { name: "Organization" }).getByLabel("Description");
    await description.fill("Not saved yet");

    await navLink(page, "Identities").click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(description).toHaveValue("Not saved yet");

    // Once saved, the page is left without a question.
    await page
      .getByRole("region", { name: "Organization" })
      .getByRole("button", { name: "Save changes" })
      .click();
    await expect(
      page.getByRole("status").filter({ hasText: "Organization updated successfully." }),
    ).toBeVisible();
    await navLink(page, "Identities").click();
    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  test("the identity's menu and the navigation fit a phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const username = newName("phone-person-with-a-long-username");
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in or sign up" }).click();
    await signInChoosing(page, username, username);
    // The name is in the button's name even where only the picture shows.
    await expect(accountMenu(page)).toHaveAccessibleName(`${username} Account menu`);
    await accountMenu(page).click();
    const menu = page.locator(`[id="${await accountMenu(page).getAttribute("aria-controls")}"]`);
    await expect(menu).toContainText(`Signed in as${username}`);
    await expect(menu.getByRole("button", { name: "Sign out" })).toBeVisible();
    expect(await horizontalOverflow(page)).toBe(0);
    await page.keyboard.press("Escape");
    await main(page).getByRole("button", { name: "Menu", exact: true }).click();
    await expect(navLink(page, "Activity")).toBeVisible();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test.describe("console layout in Slovenian", () => {
  test.use({ locale: "sl-SI" });

  for (const width of [390, 1280]) {
    test(`the navigation speaks Slovenian at ${width} px`, async ({ page, siteContext }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/a");
      await expect(page.getByRole("heading", { level: 1, name: "Predloge aplikacij" })).toBeVisible();
      await expect(page).toHaveTitle(`Predloge aplikacij · ${siteContext.title}`);
      const navigation = page.getByRole("navigation", { name: "Glavna" });
      if (width < 1024) await navigation.getByRole("button", { name: "Meni" }).click();
      await expect(navigation.getByRole("link", { name: "Predloge aplikacij" })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await expect(navigation.getByRole("link", { name: "Organizacije" })).toBeVisible();
      await expect(navigation.getByRole("button", { name: "Prijavi ali registriraj se" })).toBeVisible();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    });
  }

  test("the signed-in identity's menu speaks Slovenian", async ({ page }) => {
    const username = newName("sl");
    await page.goto("/");
    await page.getByRole("button", { name: "Prijavi ali registriraj se" }).click();
    await signInChoosing(page, username, username, slovenian);
    const navigation = page.getByRole("navigation", { name: "Glavna" });
    await expect(navigation.getByRole("link", { name: "Identitete" })).toBeVisible();
    await expect(navigation.getByRole("link", { name: "Dejavnost" })).toBeVisible();
    await navigation.getByRole("button", { name: "Meni računa" }).click();
    await expect(page.getByText("Prijavljeni ste kot")).toBeVisible();
    await expect(page.getByRole("button", { name: "Zamenjaj identiteto" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Odjavi se" })).toBeVisible();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
