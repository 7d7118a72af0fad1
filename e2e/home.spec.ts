import { createHash } from "node:crypto";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";

test.describe("home in English", () => {
  test.use({ locale: "en-US" });

  test("shows the title, the explanation, the navigation and the footer", async ({ page, siteContext }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: siteContext.title })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByText("Vrata lets you sign in or sign up to apps of organizations.")).toBeVisible();
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "Application templates" })).toHaveAttribute("href", "/a");
    await expect(main.getByRole("link", { name: "Organizations" })).toHaveAttribute("href", "/o");
    // Only for people who are signed in, here and in the navigation.
    await expect(page.getByRole("link", { name: "Identities" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Activity" })).toHaveCount(0);

    const navigation = page.getByRole("navigation");
    await expect(navigation.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(navigation.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();

    const footer = page.getByRole("contentinfo");
    await expect(footer).toHaveText("Powered by Vrata");
    await expect(footer.getByRole("link", { name: "Vrata" })).toHaveAttribute("href", "/about");
  });

  test("has no serious accessibility violations", async ({ page, siteContext }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: siteContext.title })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test.describe("home in Slovenian", () => {
  test.use({ locale: "sl-SI" });

  test("follows the browser's language", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "sl");
    await expect(page.getByRole("button", { name: "Prijavi ali registriraj se" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Predloge aplikacij" })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toHaveText("Poganja sistem Vrata");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Vrata" })).toHaveAttribute(
      "href",
      "/about",
    );
  });

  test("has no serious accessibility violations", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("main").getByRole("link", { name: "Predloge aplikacij" })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test("the language switch changes the language and remembers the choice", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();

  await page.getByLabel("Language").selectOption("sl");
  await expect(page.getByRole("button", { name: "Prijavi ali registriraj se" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "sl");

  await page.reload();
  await expect(page.getByRole("button", { name: "Prijavi ali registriraj se" })).toBeVisible();
  await expect(page.getByLabel("Jezik")).toHaveValue("sl");

  await page.getByLabel("Jezik").selectOption("en");
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("a language whose texts do not load leaves the page as it is until they do", async ({
  page,
  pageErrors,
}) => {
  let refuse = true;
  await page.route(/\/assets\/sl-[\w-]+\.js$/, (route) => (refuse ? route.abort() : route.continue()));
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();

  await page.getByLabel("Language").selectOption("sl");
  await expect.poll(() => pageErrors.some((error) => error.includes("texts did not load"))).toBe(true);
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByLabel("Language")).toHaveValue("en");
  // The refused load's own errors, and only those.
  expect(pageErrors.every((error) => /texts did not load|Failed to load resource/.test(error))).toBe(true);
  pageErrors.length = 0;

  refuse = false;
  await page.getByLabel("Language").selectOption("sl");
  await expect(page.getByRole("button", { name: "Prijavi ali registriraj se" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "sl");
});

test("Sign in or sign up sends the browser to the authorization endpoint", async ({
  page,
  baseURL,
  siteContext,
}) => {
  await page.goto("/");
  // Start-up's silent sign-in has come back (signed out) once the button shows.
  const signIn = page.getByRole("button", { name: "Sign in or sign up" });
  await expect(signIn).toBeVisible();
  const authorizeRequest = page.waitForRequest((request) => request.url().includes("/auth/oidc/authorize"));
  await signIn.click();

  const authorizeUrl = new URL((await authorizeRequest).url());
  expect(authorizeUrl.origin).toBe(baseURL);
  expect(authorizeUrl.pathname).toBe("/auth/oidc/authorize");
  const parameters = authorizeUrl.searchParams;
  expect(parameters.get("response_type")).toBe("code");
  expect(parameters.get("client_id")).toBe(siteContext.clientId);
  expect(parameters.get("redirect_uri")).toBe(siteContext.redirectUri);
  expect(parameters.get("scope")).toBe("openid profile email");
  expect(parameters.get("code_challenge_method")).toBe("S256");
  const state = parameters.get("state") ?? "";
  expect(state).toMatch(/^[\w-]{43}$/);
  expect(parameters.get("nonce")).toMatch(/^[\w-]{43}$/);
  // The person asked: the flow page may be shown (unlike start-up's silent sign-in).
  expect(parameters.has("prompt")).toBe(false);

  await expect(page).toHaveURL(/\/auth\/[^/?]+$/);

  // The stored entry holds the verifier behind the challenge and the nonce that was sent.
  const stored = await page.evaluate((key) => localStorage.getItem(key), `vrata.signin.${state}`);
  const entry = JSON.parse(stored ?? "null") as { redirectPath: string; codeVerifier: string; nonce: string };
  expect(entry.redirectPath).toBe("/");
  expect(entry.nonce).toBe(parameters.get("nonce"));
  expect(createHash("sha256").update(entry.codeVerifier).digest("base64url")).toBe(
    parameters.get("code_challenge"),
  );
});

test("loads without console errors or page errors", async ({ page, pageErrors, siteContext }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: siteContext.title })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(pageErrors).toEqual([]);
});

test("says Loading data failed. when the context cannot be loaded", async ({ page, pageErrors }) => {
  await page.route("/context.json", (route) =>
    route.fulfill({ status: 503, json: { error: "unexpected", message: "test" } }),
  );
  await page.goto("/");
  await expect(page.getByRole("alert")).toHaveText("Loading data failed.");
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();

  // Chromium logs each refused request (the first and one retry) as a failed resource.
  expect(pageErrors.every((error) => error.includes("status of 503"))).toBe(true);
  pageErrors.length = 0;
});
