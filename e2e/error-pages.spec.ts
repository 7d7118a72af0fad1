import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";

// Every error a person can land on is a translated page in the card, with a way back that works.

const authorize = (parameters: Record<string, string>) =>
  `/auth/oidc/authorize?${new URLSearchParams(parameters).toString()}`;

interface Labels {
  home: string;
  unknownClient: string;
  badRedirect: string;
  noParameters: string;
  notFound: string;
  backToConsole: string;
  signIn: string;
}

const languages: Record<"en" | "sl", { locale: string; labels: Labels }> = {
  en: {
    locale: "en-US",
    labels: {
      home: "Go to the home page",
      unknownClient: "This app is not known here",
      badRedirect: "This app's sign-in link is not right",
      noParameters: "This sign-in link is incomplete",
      notFound: "Page not found",
      backToConsole: "Back to Console",
      signIn: "Sign in or sign up",
    },
  },
  sl: {
    locale: "sl-SI",
    labels: {
      home: "Na domačo stran",
      unknownClient: "Ta aplikacija tu ni znana",
      badRedirect: "Povezava za prijavo v to aplikacijo ni pravilna",
      noParameters: "Povezava za prijavo je nepopolna",
      notFound: "Strani ni mogoče najti",
      backToConsole: "Nazaj v aplikacijo Console",
      signIn: "Prijavi ali registriraj se",
    },
  },
};

/**
 * The console's home page, signed out: the console has tried and ended its silent sign-in, so the page
 * offers to sign in and no navigation is still under way.
 */
async function expectHomeSignedOut(page: Page, labels: Labels): Promise<void> {
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("navigation").getByRole("button", { name: labels.signIn })).toBeVisible();
}

/** The page fits the width: nothing sticks out sideways. */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `at ${width} px`).toBeLessThanOrEqual(0);
  }
}

/** The error page at `path`: its status, heading, accessibility and width, then its way back. */
async function expectErrorPage(
  page: Page,
  path: string,
  { status, heading, wayBack }: { status: number; heading: string; wayBack: string },
) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(status);
  const card = page.getByRole("main");
  await expect(card.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page).toHaveTitle(`${heading} · Vrata`);
  // No console navigation on an error page: only the card, the language switch and the footer.
  await expect(page.getByRole("navigation")).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await expectNoHorizontalOverflow(page);
  return card.getByRole("link", { name: wayBack });
}

/** Chromium logs the error page's own status as a failed resource; that is the page working. */
function dropErrorStatuses(pageErrors: string[]): void {
  const rest = pageErrors.filter((error) => !/status of (400|404)/.test(error));
  pageErrors.splice(0, pageErrors.length, ...rest);
}

for (const [language, { locale, labels }] of Object.entries(languages)) {
  test.describe(`error pages in ${language}`, () => {
    test.use({ locale });

    test("an unknown client leads home", async ({ page, pageErrors }) => {
      const wayBack = await expectErrorPage(
        page,
        authorize({
          client_id: "nobody",
          response_type: "code",
          scope: "openid",
          redirect_uri: "https://evil.example/",
        }),
        { status: 400, heading: labels.unknownClient, wayBack: labels.home },
      );
      await expect(page.getByText("invalid_client")).toBeVisible();
      await wayBack.click();
      await expectHomeSignedOut(page, labels);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      dropErrorStatuses(pageErrors);
    });

    test("a redirect URI the app does not have leads back to the app", async ({
      page,
      pageErrors,
      siteContext,
    }) => {
      const wayBack = await expectErrorPage(
        page,
        authorize({
          client_id: siteContext.clientId,
          response_type: "code",
          scope: "openid",
          redirect_uri: "https://evil.example/",
        }),
        { status: 400, heading: labels.badRedirect, wayBack: labels.backToConsole },
      );
      // The console's homepage, which its template sets; never the address the request named.
      await expect(wayBack).toHaveAttribute("href", siteContext.redirectUri);
      await wayBack.click();
      await expectHomeSignedOut(page, labels);
      dropErrorStatuses(pageErrors);
    });

    test("an authorization request without parameters leads home", async ({ page, pageErrors }) => {
      const wayBack = await expectErrorPage(page, "/auth/oidc/authorize", {
        status: 400,
        heading: labels.noParameters,
        wayBack: labels.home,
      });
      await wayBack.click();
      await expectHomeSignedOut(page, labels);
      dropErrorStatuses(pageErrors);
    });

    test("an unknown path leads home", async ({ page, pageErrors }) => {
      const wayBack = await expectErrorPage(page, "/no/such/page", {
        status: 404,
        heading: labels.notFound,
        wayBack: labels.home,
      });
      await wayBack.click();
      await expectHomeSignedOut(page, labels);
      dropErrorStatuses(pageErrors);
    });
  });
}

test("the engine's error page speaks the language the app asked for", async ({ page, pageErrors }) => {
  await page.goto(authorize({ client_id: "nobody", ui_locales: "sl" }));
  await expect(
    page.getByRole("heading", { level: 1, name: languages.sl.labels.unknownClient }),
  ).toBeVisible();

  // The person's own choice wins over the app's.
  await page.getByLabel("Jezik").selectOption("en");
  await page.reload();
  await expect(
    page.getByRole("heading", { level: 1, name: languages.en.labels.unknownClient }),
  ).toBeVisible();
  dropErrorStatuses(pageErrors);
});

test("after the way back, going back shows the error again", async ({ page, pageErrors }) => {
  await page.goto("/no/such/page");
  await page.getByRole("contentinfo").getByRole("link", { name: "Vrata" }).click();
  await expect(page).toHaveURL("/about");
  await expect(page.getByRole("heading", { level: 1, name: /^About / })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  dropErrorStatuses(pageErrors);
});

test.describe("about the instance", () => {
  test.use({ locale: "en-US" });

  test("Powered by Vrata leads to the About page, which leads to the License and the Notice", async ({
    page,
    baseURL,
    siteContext,
  }) => {
    await page.goto("/");
    // The page is at rest once start-up has asked whether the person is signed in.
    await expect(page.getByRole("button", { name: "Sign in or sign up" })).toBeVisible();
    await page.getByRole("contentinfo").getByRole("link", { name: "Vrata" }).click();
    await expect(page).toHaveURL("/about");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: `About ${siteContext.title}` })).toBeVisible();
    await expect(main.getByText(/^\d+\.\d+\.\d+/)).toBeVisible();
    await expect(main.getByText(baseURL ?? "", { exact: true })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await expectNoHorizontalOverflow(page);

    await main.getByRole("link", { name: "License" }).click();
    await expect(page).toHaveURL("/LICENSE");
    await expect(main.getByRole("heading", { level: 1, name: "License" })).toBeVisible();
    await expect(
      main.getByText("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", { exact: true }),
    ).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await expectNoHorizontalOverflow(page);

    await main.getByRole("link", { name: "About this service" }).click();
    await main.getByRole("link", { name: "Notice" }).click();
    await expect(page).toHaveURL("/NOTICE");
    await expect(main.getByText(/licensed under the Apache License, Version 2\.0/)).toBeVisible();
  });

  test("a browser opening /LICENSE directly gets the page", async ({ page }) => {
    await page.goto("/LICENSE");
    await expect(page.getByRole("heading", { level: 1, name: "License" })).toBeVisible();
    await expect(page.getByText("Apache License", { exact: false }).first()).toBeVisible();
  });

  test("in Slovenian", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("vrata.locale", "sl"));
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1, name: /^O storitvi / })).toBeVisible();
    await expect(page.getByRole("link", { name: "Licenca" })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("a server fault shows its request ID", async ({ page, pageErrors }) => {
    await page.route("/api/about", (route) =>
      route.fulfill({
        status: 500,
        json: { error: "unexpected", message: "Unexpected error.", requestId: "req-7f3a" },
      }),
    );
    await page.goto("/about");
    await expect(page.getByRole("alert")).toHaveText("Loading data failed. Request ID: req-7f3a");
    pageErrors.length = 0;
  });
});
