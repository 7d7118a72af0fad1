import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import { accountMenu } from "./support/console.ts";
import { outlastPausedCountdown } from "./support/flow.ts";

// The console is an app of the built-in organization: its "Sign in or sign up" starts a real flow.

const password = "correct horse battery";

const newUsername = () => `e2e-${randomUUID().slice(0, 8)}`;

/** Starts the console's sign-in and waits for the flow page; returns the flow's ID. */
async function startFlow(page: Page): Promise<string> {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in or sign up" }).click();
  await expect(page).toHaveURL(/\/auth\/[^/?#]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Console" })).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

const identifierField = (page: Page) => page.getByLabel("Username or e-mail address", { exact: true });
const passwordField = (page: Page) => page.getByLabel("Password or passphrase", { exact: true });

async function enterUsername(page: Page, username: string): Promise<void> {
  await identifierField(page).fill(username);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(passwordField(page)).toBeFocused();
}

async function enterPassword(page: Page, value: string): Promise<void> {
  await passwordField(page).fill(value);
  await page.getByRole("button", { name: "Submit" }).click();
}

async function signUp(page: Page, username: string): Promise<void> {
  await enterUsername(page, username);
  await enterPassword(page, password);
  await expect(page.getByText("You signed up.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Choose an identity" })).toBeFocused();
}

/** Chromium logs each refused request as a failed resource; a step's 400 answers are expected. */
function dropRefusedRequests(pageErrors: string[]): void {
  const rest = pageErrors.filter((error) => !error.includes("status of 400"));
  pageErrors.splice(0, pageErrors.length, ...rest);
}

const identityItem = (page: Page, name: string) => page.getByRole("listitem").filter({ hasText: name });

/** How many pixels the page is wider than the window: 0 when nothing overflows sideways. */
const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Chromium logs the refused request for an unknown flow as a failed resource. */
function dropNotFound(pageErrors: string[]): void {
  expect(pageErrors.every((error) => error.includes("status of 404"))).toBe(true);
  pageErrors.length = 0;
}

test.describe("auth flow in English", () => {
  test.use({ locale: "en-US" });

  test("a new username signs up, creates and selects an identity, and returns to the console signed in", async ({
    page,
    baseURL,
  }) => {
    // Time on the page's clock passes at once where the test outlasts a paused countdown.
    await page.clock.install();
    await startFlow(page);
    await expect(page.getByText("This app of Vrata asks you to sign in or sign up.")).toBeVisible();
    await expect(identifierField(page)).toBeFocused();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const username = newUsername();
    await enterUsername(page, username);
    // Clicking the identifier, Back and the stepper's first step all return to the start, keeping it.
    await page.getByRole("button", { name: `${username} (change)` }).click();
    await expect(identifierField(page)).toHaveValue(username);
    await enterUsername(page, username);
    await page.getByRole("button", { name: "Back" }).click();
    await expect(identifierField(page)).toBeFocused();
    await enterUsername(page, username);
    await page.getByRole("navigation", { name: "Steps" }).getByRole("button", { name: "Start" }).click();
    await expect(identifierField(page)).toHaveValue(username);
    await signUp(page, username);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The sign-up made an identity from the username; a second one is created here and chosen.
    await expect(identityItem(page, username)).toBeVisible();
    await page.getByRole("button", { name: "Create new identity" }).click();
    await expect(page.getByLabel("Username", { exact: true })).toBeFocused();
    await page.getByLabel("Username", { exact: true }).fill(`${username}-work`);
    await page.getByLabel("Full name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page.getByText("Identity created.")).toBeVisible();
    const work = identityItem(page, `${username}-work`);
    await expect(work).toContainText("Ada Lovelace");
    await expect(work.getByRole("button", { name: "Select" })).toBeFocused();
    await work.getByRole("button", { name: "Select" }).click();

    const countdown = page.getByRole("status");
    await expect(
      page.getByRole("heading", { name: "You will be redirected back to Console." }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(countdown).toHaveText("Redirect is paused.");
    // Longer than the whole countdown: a paused countdown must not redirect.
    await outlastPausedCountdown(page, countdown.filter({ hasText: "Redirect is paused." }));
    await expect(page).toHaveURL(/\/auth\//);

    // Back to the identity step and the same choice again; Esc pauses the new countdown.
    await page.getByRole("button", { name: "Back" }).click();
    await work.getByRole("button", { name: "Select" }).click();
    await expect(countdown).toHaveText(/^Redirecting in [1-3] seconds?\.$/);
    await page.keyboard.press("Escape");
    await expect(countdown).toHaveText("Redirect is paused.");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(countdown).toHaveText(/^Redirecting in [1-3] seconds?\.$/);

    await expect(accountMenu(page)).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
  });

  test("a wrong password for an existing username says so; starting over signs in", async ({
    page,
    pageErrors,
  }) => {
    await startFlow(page);
    const username = newUsername();
    await signUp(page, username);

    // Back on the identity step forgets the sign-in: the person proves who they are again.
    await page.getByRole("button", { name: "Back" }).click();
    await expect(identifierField(page)).toBeFocused();
    await enterUsername(page, username);
    await enterPassword(page, "not the password");
    const message = page.getByText(
      "Wrong password or passphrase for the account with the provided username.",
    );
    await expect(message).toBeVisible();
    await expect(passwordField(page)).toBeFocused();
    await expect(passwordField(page)).toHaveAccessibleDescription(
      "Wrong password or passphrase for the account with the provided username.",
    );

    await enterPassword(page, password);
    await expect(page.getByText("You signed in.")).toBeVisible();
    await identityItem(page, username).getByRole("button", { name: "Select" }).click();
    await page.getByRole("button", { name: "Redirect now" }).click();
    await expect(accountMenu(page)).toBeVisible();
    dropRefusedRequests(pageErrors);
  });

  test("when the later steps cannot load, the first step stays and says so; the next try goes on", async ({
    page,
    pageErrors,
  }) => {
    let refuse = true;
    await page.route(/\/assets\/laterSteps-[\w-]+\.js$/, (route) =>
      refuse ? route.abort() : route.continue(),
    );
    await startFlow(page);
    await identifierField(page).fill(newUsername());
    await page.getByRole("button", { name: "Next" }).click();

    await expect(page.getByRole("alert")).toContainText("Unexpected error. Please try again.");
    await expect(identifierField(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
    // The refused chunk's own errors, and only those.
    expect(
      pageErrors.every((error) => /Failed to load resource|dynamically imported module/.test(error)),
    ).toBe(true);
    pageErrors.length = 0;

    refuse = false;
    await page.getByRole("button", { name: "Next" }).click();
    await expect(passwordField(page)).toBeFocused();
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("too short or invalid usernames and e-mail addresses get their messages", async ({
    page,
    pageErrors,
  }) => {
    await startFlow(page);
    const stepRequests: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") stepRequests.push(request.url());
    });

    await identifierField(page).fill("ab");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(identifierField(page)).toHaveAccessibleDescription(
      "If you do not have an account yet, one is created for you. Username should be at least 3 characters.",
    );
    await expect(identifierField(page)).toBeFocused();
    await expect(identifierField(page)).toHaveAttribute("aria-invalid", "true");

    await identifierField(page).fill("a@");
    await page.getByRole("button", { name: "Send a code instead" }).click();
    await expect(page.getByText("E-mail address should be at least 3 characters.")).toBeVisible();
    expect(stepRequests).toEqual([]);

    // Checked by the server: spaces are not allowed in identifiers.
    await identifierField(page).fill("a b c");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Invalid username.")).toBeVisible();
    await expect(identifierField(page)).toBeFocused();
    await identifierField(page).fill("a b@example.com");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Invalid e-mail address.")).toBeVisible();
    dropRefusedRequests(pageErrors);
  });

  test("a short password is refused before it is sent", async ({ page }) => {
    await startFlow(page);
    await enterUsername(page, newUsername());
    await enterPassword(page, "short");
    await expect(page.getByText("Password or passphrase should be at least 8 characters.")).toBeVisible();
    await expect(passwordField(page)).toBeFocused();
  });

  test("declining returns to the console with access denied", async ({ page, baseURL }) => {
    await startFlow(page);
    await signUp(page, newUsername());
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(
      page.getByRole("heading", {
        name: "You decided to decline. Console will be told that you did not sign in or up.",
      }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Redirect now" }).click();
    await expect(page.getByRole("alert")).toContainText("Signing in or up was declined.");
    await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
  });

  test("declining during the countdown counts down again and returns with access denied", async ({
    page,
    baseURL,
  }) => {
    await startFlow(page);
    const username = newUsername();
    await signUp(page, username);
    await identityItem(page, username).getByRole("button", { name: "Select" }).click();
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(
      page.getByRole("heading", {
        name: "You decided to decline. Console will be told that you did not sign in or up.",
      }),
    ).toBeFocused();
    // The new countdown runs, and sends the browser back on its own.
    await expect(page.getByRole("button", { name: "Decline" })).toHaveCount(0);
    await expect(page.getByRole("alert")).toContainText("Signing in or up was declined.");
    expect(page.url()).toBe(`${baseURL}/`);
  });

  test("after the flow finished, its page says so and leads to the app's homepage", async ({
    page,
    baseURL,
  }) => {
    const flowId = await startFlow(page);
    await signUp(page, newUsername());
    await page.getByRole("button", { name: "Decline" }).click();
    await page.getByRole("button", { name: "Redirect now" }).click();
    await expect(page.getByRole("alert")).toContainText("Signing in or up was declined.");

    await page.goto(`/auth/${flowId}`);
    await expect(
      page.getByRole("heading", { name: "You have already been redirected and completed the flow." }),
    ).toBeFocused();
    await expect(
      page.getByText("You decided to decline, so Console was told that you did not sign in or up."),
    ).toBeVisible();
    // The flow is over: the card only names the app, which no longer asks anything.
    await expect(page.getByText("An app of Vrata", { exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Steps" })).toHaveCount(0);
    // The console's homepage is the root of this site.
    await page.getByRole("link", { name: "Go to Console" }).click();
    await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
  });
});

test.describe("the sign-in card", () => {
  test.use({ locale: "en-US" });

  for (const width of [390, 1280]) {
    test(`at ${width} px shows no console navigation and fits the window`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await startFlow(page);
      // Nothing that would leave the flow: no console navigation, no sign-in button of the console.
      await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Sign in or sign up" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Home" })).toHaveCount(0);
      await expect(page.getByRole("banner")).toContainText("Vrata");
      await expect(page.getByRole("combobox", { name: "Language" })).toBeVisible();
      await expect(page.getByRole("contentinfo")).toHaveText("Powered by Vrata");
      expect(await horizontalOverflow(page)).toBe(0);

      // Phones name only the current step; wider screens name each one under its bar.
      const steps = page.getByRole("navigation", { name: "Steps" });
      await expect(steps.getByText("Step 1 of 3: Start")).toBeVisible({ visible: width < 640 });
      const identityLabel = await steps.getByText("Identity", { exact: true }).boundingBox();
      expect((identityLabel?.width ?? 0) > 1).toBe(width >= 640);

      const username = newUsername();
      await enterUsername(page, username);
      await expect(page.getByRole("button", { name: `${username} (change)` })).toBeVisible();
      expect(await horizontalOverflow(page)).toBe(0);
      await enterPassword(page, password);
      await expect(page.getByRole("heading", { name: "Choose an identity" })).toBeFocused();
      expect(await horizontalOverflow(page)).toBe(0);
    });
  }

  const unknownFlow = [
    {
      locale: "en-US",
      heading: "This sign-in page does not exist or has expired.",
      text: "A sign-in page is valid only for a limited time. Go back to the app you came from and start signing in again.",
      home: "Go to the home page",
      signIn: "Sign in or sign up",
    },
    {
      locale: "sl-SI",
      heading: "Ta stran za prijavo ne obstaja ali pa je potekla.",
      text: "Stran za prijavo velja le omejen čas. Vrnite se v aplikacijo, iz katere ste prišli, in znova začnite prijavo.",
      home: "Na domačo stran",
      signIn: "Prijavi ali registriraj se",
    },
  ];
  for (const expected of unknownFlow) {
    test.describe(`in ${expected.locale}`, () => {
      test.use({ locale: expected.locale });

      test("of an unknown flow says so in plain words and leads home", async ({
        page,
        pageErrors,
        baseURL,
      }) => {
        await page.goto("/auth/unknown-flow");
        await expect(page.getByRole("heading", { level: 1, name: expected.heading })).toBeFocused();
        // The page is named after what it says, in the tab and the history.
        await expect(page).toHaveTitle(new RegExp(`^${expected.heading}`));
        await expect(page.getByText(expected.text)).toBeVisible();
        await expect(page.getByRole("alert")).toHaveCount(0);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await page.getByRole("link", { name: expected.home }).click();
        await expect(page.getByRole("button", { name: expected.signIn })).toBeVisible();
        expect(page.url()).toBe(`${baseURL}/`);

        // An ID of the right shape that names no flow gets the same page.
        await page.goto(`/auth/${"A".repeat(43)}`);
        await expect(page.getByRole("heading", { level: 1, name: expected.heading })).toBeVisible();
        dropNotFound(pageErrors);
      });
    });
  }
});

test.describe("auth flow in Slovenian", () => {
  test.use({ locale: "sl-SI" });

  test("speaks Slovenian", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Prijavi ali registriraj se" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Konzola" })).toBeVisible();
    await expect(
      page.getByText("Ta aplikacija organizacije Vrata vas prosi, da se prijavite ali registrirate."),
    ).toBeVisible();
    await page.getByLabel("Uporabniško ime ali e-poštni naslov", { exact: true }).fill("ab");
    await page.getByRole("button", { name: "Naprej" }).click();
    await expect(page.getByText("Uporabniško ime mora imeti vsaj 3 znake.")).toBeVisible();
  });
});

test.describe("the app's ui_locales", () => {
  test.use({ locale: "en-US" });

  test("make the flow page speak the language the app asked for", async ({ page }) => {
    const context = (await (await page.request.get("/context.json")).json()) as {
      clientId: string;
      redirectUri: string;
    };
    const authorize = new URLSearchParams({
      client_id: context.clientId,
      redirect_uri: context.redirectUri,
      response_type: "code",
      scope: "openid",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      state: "ui-locales",
      ui_locales: "sl",
    });
    await page.goto(`/auth/oidc/authorize?${authorize.toString()}`);
    await expect(page).toHaveURL(/\/auth\/[\w-]+$/);
    await expect(page.getByLabel("Uporabniško ime ali e-poštni naslov", { exact: true })).toBeVisible();
  });
});
