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
  await expect(page.getByRole("button", { name: "Sign-in or sign-up" })).toBeVisible();
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
  await expect(page.getByRole("button", { name: "Sign-in or sign-up" })).toBeVisible();

  await alert.getByRole("button", { name: "Dismiss" }).click();
  await expect(alert).toHaveCount(0);

  // The token endpoint's refusal is expected here; Chromium logs it as a failed resource.
  const expected = pageErrors.filter((error) => error.includes("status of 400"));
  expect(expected).toHaveLength(1);
  pageErrors.splice(pageErrors.indexOf(expected[0] ?? ""), 1);
});
