import type { Request } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

test("start-up clears #_=_ and an unknown state's query, and exchanges nothing", async ({
  page,
  baseURL,
}) => {
  const oidcRequests: string[] = [];
  page.on("request", (request) => {
    if (/\/(auth\/oidc|\.well-known)\//.test(request.url())) oidcRequests.push(request.url());
  });

  await page.goto("/?state=unknown&code=abc#_=_");
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  expect(page.url()).toBe(`${baseURL}/`);
  expect(oidcRequests).toEqual([]);
});

test("a stored sign-in is used once to exchange the code, and a failed exchange is reported", async ({
  page,
  baseURL,
  siteContext,
  pageErrors,
}) => {
  await page.goto("/");
  // Start-up's silent sign-in has come back (signed out) once the button shows.
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  const entry = { redirectPath: "/o", codeVerifier: "v".repeat(43), nonce: "test-nonce" };
  await page.evaluate(
    (value) => localStorage.setItem("vrata.signin.test-state", value),
    JSON.stringify(entry),
  );

  const tokenRequest = page.waitForRequest((request) => request.url().endsWith("/auth/oidc/token"));
  await page.goto(`/?code=not-a-code&state=test-state&iss=${encodeURIComponent(baseURL ?? "")}`);

  const body = new URLSearchParams((await tokenRequest).postData() ?? "");
  expect(body.get("grant_type")).toBe("authorization_code");
  expect(body.get("code")).toBe("not-a-code");
  expect(body.get("code_verifier")).toBe(entry.codeVerifier);
  expect(body.get("redirect_uri")).toBe(siteContext.redirectUri);
  expect(body.get("client_id")).toBe(siteContext.clientId);

  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Unexpected error. Please try again.");
  expect(page.url()).toBe(`${baseURL}/`);
  expect(await page.evaluate(() => localStorage.getItem("vrata.signin.test-state"))).toBeNull();
  await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();

  await alert.getByRole("button", { name: "Dismiss" }).click();
  await expect(alert).toHaveCount(0);

  // The token endpoint's refusal is expected here; Chromium logs it as a failed resource.
  const expected = pageErrors.filter((error) => error.includes("status of 400"));
  expect(expected).toHaveLength(1);
  pageErrors.splice(pageErrors.indexOf(expected[0] ?? ""), 1);
});

test("start-up tries one silent sign-in per tab, never on the auth flow's pages, and stays quietly signed out when refused", async ({
  page,
  baseURL,
  siteContext,
}) => {
  const authorizeRequests: URL[] = [];
  const recordAuthorize = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === "/auth/oidc/authorize") authorizeRequests.push(url);
  };
  page.context().on("request", recordAuthorize);

  await page.goto("/i?tab=1");
  const navigation = page.getByRole("navigation", { name: "Main" });
  await expect(navigation.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  // One round trip with prompt=none, and back where the person was, without an error.
  expect(authorizeRequests).toHaveLength(1);
  const parameters = authorizeRequests[0]?.searchParams;
  expect(parameters?.get("prompt")).toBe("none");
  expect(parameters?.get("client_id")).toBe(siteContext.clientId);
  expect(parameters?.get("code_challenge_method")).toBe("S256");
  expect(page.url()).toBe(`${baseURL}/i?tab=1`);
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  // Nothing of the attempt is left in storage but the mark that this tab tried.
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("vrata.signin."))),
  ).toEqual([]);

  // The tab tried already: reloading does not try again, so a refusal cannot loop.
  await page.reload();
  await expect(navigation.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
  expect(authorizeRequests).toHaveLength(1);

  // Another tab tries on its own, but not on an auth flow page.
  const flowPage = await page.context().newPage();
  await flowPage.goto("/auth/unknown-flow");
  await expect(
    flowPage.getByRole("heading", { name: "This sign-in page does not exist or has expired." }),
  ).toBeVisible();
  expect(authorizeRequests).toHaveLength(1);
  await flowPage.close();
});
