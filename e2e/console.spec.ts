import { randomUUID } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { accountMenu, navLink } from "./support/console.ts";
import { identityItem, passwordSignUpSteps } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";

// The console's identities and activity pages, silent sign-in after a reload, and sign-out, against the
// real server: each test signs a new person up through the console's own flow.

const newUsername = () => `console-${randomUUID().slice(0, 8)}`;

const english = flowLabels.en;

/**
 * From the current page, "Sign in or sign up" (the first such button), a new account with a password,
 * its identity chosen, and back to the console, signed in.
 */
async function signUp(page: Page, username: string, labels = english): Promise<void> {
  await page.getByRole("button", { name: labels.signIn }).first().click();
  await passwordSignUpSteps(page, username, labels);
  await expect(page.getByRole("button", { name: labels.accountMenu })).toBeVisible();
}

const mainArea = (page: Page) => page.getByRole("main");
/** The rows of the activity list (each may hold a list of its changes). */
const activityEntries = (page: Page) => mainArea(page).locator("ol > li");
const status = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

/** Requests to the authorization endpoint with prompt=none: start-up's silent sign-ins. */
function silentSignIns(page: Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/auth/oidc/authorize" && url.searchParams.get("prompt") === "none")
      requests.push(request);
  });
  return requests;
}

/** Chromium logs each refused request as a failed resource; drops the expected ones. */
function dropExpected(pageErrors: string[], status: number): void {
  const rest = pageErrors.filter((error) => !error.includes(`status of ${status}`));
  pageErrors.splice(0, pageErrors.length, ...rest);
}

test.describe("console in English", () => {
  test.use({ locale: "en-US" });

  test("pages that need a signed-in person say so and offer to sign in", async ({ page }) => {
    await page.goto("/i");
    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
    await expect(
      page.getByText("Sign in or sign up to see your identities or to create the first one."),
    ).toBeVisible();
    await expect(mainArea(page).getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
    // Create only when signed in.
    await expect(page.getByRole("link", { name: "Create identity" })).toHaveCount(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.goto("/i/create");
    await expect(page.getByRole("heading", { level: 1, name: "Create identity" })).toBeVisible();
    await expect(page.getByText("Sign in or sign up to create an identity.")).toBeVisible();
    await expect(page.getByLabel("Username", { exact: true })).toHaveCount(0);

    await page.goto("/activity");
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    await expect(page.getByText("Sign in or sign up to see your activity.")).toBeVisible();
    await expect(mainArea(page).getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  });

  test("identities: list, create, update and a change made meanwhile in another tab", async ({
    page,
    pageErrors,
  }) => {
    const username = newUsername();
    await page.goto("/");
    await signUp(page, username);
    await navLink(page, "Identities").click();
    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
    await expect(page.getByText("You have 1 identity.")).toBeVisible();
    const own = identityItem(page, username);
    await expect(own).toContainText("current");
    await expect(own).toContainText("admin");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // A second identity: the page of the new one says it was created.
    await page.getByRole("link", { name: "Create identity" }).click();
    await expect(page.getByLabel("Username", { exact: true })).toBeFocused();
    await page.getByLabel("Username", { exact: true }).fill(`${username}-work`);
    await page.getByLabel("Full name").fill("Ada Lovelace");
    await page.getByLabel("Picture URL").fill("not a url");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page.getByLabel("Picture URL")).toBeFocused();
    await expect(page.getByLabel("Picture URL")).toHaveAccessibleDescription("Invalid picture URL.");
    dropExpected(pageErrors, 400);
    await page.getByLabel("Picture URL").fill("");
    await page.getByRole("button", { name: "Create", exact: true }).click();

    const heading = page.getByRole("heading", { level: 1, name: `${username}-work` });
    await expect(heading).toBeFocused();
    await expect(status(page, "Identity created.")).toBeVisible();
    const workUrl = page.url();
    expect(new URL(workUrl).pathname).toMatch(/^\/i\/[^/]+$/);
    await expect(heading).toContainText("admin");
    await expect(heading).not.toContainText("current");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Changing it sends the version it was loaded with.
    await page.getByLabel("Full name").fill("Ada King");
    await page.getByLabel("Description").fill("For work.");
    await page
      .getByRole("form", { name: "Update identity" })
      .getByRole("button", { name: "Save changes" })
      .click();
    await expect(status(page, "Identity updated successfully.")).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "Ada King" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "For work." })).toBeVisible();

    // Another tab of the same browser (signed in silently) changes it in the meantime.
    const otherTab = await page.context().newPage();
    await otherTab.goto(workUrl);
    await otherTab.getByLabel("Full name").fill("Ada Lovelace King");
    await otherTab
      .getByRole("form", { name: "Update identity" })
      .getByRole("button", { name: "Save changes" })
      .click();
    await expect(status(otherTab, "Identity updated successfully.")).toBeVisible();
    await otherTab.close();

    // This tab's version is stale: nothing is overwritten, and the person is told to reload.
    await page.getByLabel("Description").fill("Only for work.");
    await page
      .getByRole("form", { name: "Update identity" })
      .getByRole("button", { name: "Save changes" })
      .click();
    await expect(page.getByRole("alert")).toHaveText(
      "Someone changed this in the meantime. Reload the page and try again.",
    );
    await expect(status(page, "Identity updated successfully.")).toHaveCount(0);
    dropExpected(pageErrors, 409);
    await page.reload();
    await expect(page.getByLabel("Full name")).toHaveValue("Ada Lovelace King");
    await expect(page.getByLabel("Description")).toHaveValue("For work.");

    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Identities" })
      .click();
    await expect(page.getByText("You have 2 identities.")).toBeVisible();
    await expect(identityItem(page, `${username}-work`)).toContainText("Ada Lovelace King");
    await expect(identityItem(page, `${username}-work`)).not.toContainText("current");
  });

  test("activity, silent sign-in after a reload, and sign-out", async ({ page, baseURL }) => {
    const username = newUsername();
    await page.goto("/i");
    await signUp(page, username);
    // Signing in from a page comes back to it.
    expect(page.url()).toBe(`${baseURL}/i`);
    await page.getByRole("link", { name: username }).click();
    await page.getByLabel("Given name").fill("Ada");
    await page
      .getByRole("form", { name: "Update identity" })
      .getByRole("button", { name: "Save changes" })
      .click();
    await expect(status(page, "Identity updated successfully.")).toBeVisible();

    await navLink(page, "Activity").click();
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    const entries = activityEntries(page);
    // Newest first: the update here, then the sign-up (reference §8), in words. The sign-in and the
    // joining it brought are recorded in one moment, so either may come first.
    await expect(entries).toHaveCount(4);
    await expect(entries.nth(0)).toContainText(`Changed the identity ${username}`);
    await expect(entries.nth(0)).toContainText("Changed the given name.");
    const signInEntry = entries.filter({ hasText: "Signed in to Console" });
    const joinEntry = entries.filter({ hasText: "Joined the organization Vrata." });
    await expect(signInEntry).toHaveCount(1);
    await expect(joinEntry).toContainText(`Changed the identity ${username}`);
    await expect(entries.nth(3)).toContainText(`Created the identity ${username}`);
    await expect(status(page, "4 entries shown.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    // How long ago, with the date and time in the language of the page.
    const time = entries.nth(0).locator("time");
    const timestamp = (await time.getAttribute("datetime")) ?? "";
    await expect(time).toHaveText("now");
    await expect(time).toHaveAttribute(
      "title",
      new Intl.DateTimeFormat("en", { dateStyle: "long", timeStyle: "medium" }).format(new Date(timestamp)),
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await signInEntry.getByRole("link", { name: "Details of the entry from now" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Signed in to Console" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "Password or passphrase" })).toBeVisible();
    await expect(page.getByRole("definition").getByRole("link", { name: username })).toHaveAttribute(
      "href",
      /^\/i\/[^/]+$/,
    );

    // A reload keeps the person signed in: the single sign-on session answers prompt=none.
    const silent = silentSignIns(page);
    const entryRequest = page.waitForRequest((request) => request.url().includes("/api/activity/"));
    await page.reload();
    await expect(accountMenu(page)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Signed in to Console" })).toBeVisible();
    expect(silent).toHaveLength(1);
    // The new token is in memory only.
    const token = ((await (await entryRequest).allHeaders()).authorization ?? "").replace(/^Bearer /, "");
    expect(token).not.toBe("");
    const stored = await page.evaluate(() =>
      JSON.stringify([Object.values(localStorage), Object.values(sessionStorage)]),
    );
    expect(stored).not.toContain(token);

    // Signing out stays on the page, which now asks to sign in; the focus moves to the new button.
    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Activity" })
      .click();
    await accountMenu(page).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    const signIn = page.getByRole("navigation").getByRole("button", { name: "Sign in or sign up" });
    await expect(signIn).toBeFocused();
    expect(page.url()).toBe(`${baseURL}/activity`);
    await expect(page.getByText("Sign in or sign up to see your activity.")).toBeVisible();

    // The single sign-on session ended too: after a reload the silent sign-in is refused, quietly.
    await page.reload();
    await expect(signIn).toBeVisible();
    expect(silent).toHaveLength(2);
    expect(page.url()).toBe(`${baseURL}/activity`);
    await expect(page.getByText("Sign in or sign up to see your activity.")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("activity comes a page at a time, newest first", async ({ page, request }) => {
    const username = newUsername();
    await page.goto("/");
    await signUp(page, username);

    // The console's token, to make many entries quickly through the API.
    const listRequest = page.waitForRequest((candidate) => candidate.url().endsWith("/api/i"));
    await navLink(page, "Identities").click();
    const authorization = (await (await listRequest).allHeaders()).authorization ?? "";
    const list = (await (await request.get("/api/i", { headers: { authorization } })).json()) as {
      id: string;
      version: number;
    }[];
    const identity = list[0] ?? { id: "", version: 0 };
    for (let index = 1; index <= 20; index++) {
      const response = await request.post(`/api/i/update/${identity.id}`, {
        headers: { authorization },
        data: { username, description: `Change ${index}`, version: identity.version + index - 1 },
      });
      expect(response.status()).toBe(200);
    }

    await navLink(page, "Activity").click();
    const entries = activityEntries(page);
    const links = entries.getByRole("link", { name: /^Details of the entry/ });
    await expect(status(page, "20 entries shown.")).toBeVisible();
    await expect(links).toHaveCount(20);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(status(page, "23 entries shown.")).toBeVisible();
    await expect(links.nth(20)).toBeFocused();
    await expect(entries.nth(19)).toContainText(`Changed the identity ${username}`);
    await expect(entries.nth(19)).toContainText("Changed the description.");
    await expect(entries.nth(20)).toContainText("Signed in to Console");
    await expect(entries.nth(22)).toContainText(`Created the identity ${username}`);
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  });
});

test.describe("console in Slovenian", () => {
  test.use({ locale: "sl-SI" });

  const slovenian = flowLabels.sl;

  test("the identities pages speak Slovenian, with its plural forms", async ({ page, baseURL }) => {
    await page.goto("/i");
    await expect(page.getByRole("heading", { level: 1, name: "Identitete" })).toBeVisible();
    await expect(
      page.getByText("Prijavite ali registrirajte se, da boste videli svoje identitete ali ustvarili prvo."),
    ).toBeVisible();

    const username = newUsername();
    await signUp(page, username, slovenian);
    expect(page.url()).toBe(`${baseURL}/i`);
    await expect(page.getByText("Imate 1 identiteto.")).toBeVisible();
    await expect(identityItem(page, username)).toContainText("trenutna");
    await expect(identityItem(page, username)).toContainText("skrbnik");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Ustvari identiteto" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Ustvari identiteto" })).toBeVisible();
    await page.getByRole("button", { name: "Ustvari", exact: true }).click();
    await expect(page.getByLabel("Uporabniško ime", { exact: true })).toHaveAccessibleDescription(
      "Izpolnite vsaj eno od polj: uporabniško ime, e-poštni naslov, ime, polno ime ali URL slike.",
    );
    await page.getByLabel("Polno ime").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Ustvari", exact: true }).click();
    await expect(status(page, "Identiteta je ustvarjena.")).toBeVisible();
    await page.getByLabel("Ime", { exact: true }).fill("Ada");
    await page
      .getByRole("form", { name: "Posodobi identiteto" })
      .getByRole("button", { name: "Shrani spremembe" })
      .click();
    await expect(status(page, "Identiteta je bila uspešno posodobljena.")).toBeVisible();

    await page
      .getByRole("navigation", { name: "Drobtinice" })
      .getByRole("link", { name: "Identitete" })
      .click();
    await expect(page.getByText("Imate 2 identiteti.")).toBeVisible();
  });
});
