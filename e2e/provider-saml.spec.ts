import type { Page } from "@playwright/test";
import { dropFailedLoads, expect, test } from "./fixtures.ts";
import { startFlow } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";
import { checkPage, settle } from "./support/layout-checks.ts";

// Issue 27: the IdP's answer that Vrata refuses is the card page saying what went wrong, leading back
// to the sign-in; a cancel at the IdP (an error status) ends the sign-in, and the app is told
// access_denied. The IdP is e2e/support/saml-idp.ts, "eid" in the server's configuration.

const words = {
  en: {
    ...flowLabels.en,
    provider: "Sign in with National eID",
    refused: "Signing in with National eID did not work",
    notFromProvider: "The answer could not be confirmed as coming from National eID",
    backToSignIn: "Back to signing in",
    failed: "Signing in or up failed.",
    denied: "Signing in with National eID was cancelled or refused",
    returnToApp: /^Return to /,
    declinedAtApp: "Signing in or up was declined.",
  },
  sl: {
    ...flowLabels.sl,
    provider: "Prijava s ponudnikom Nacionalna e-identiteta",
    refused: "Prijava s ponudnikom Nacionalna e-identiteta ni uspela",
    notFromProvider: "Ni bilo mogoče potrditi, da odgovor prihaja od ponudnika Nacionalna e-identiteta",
    backToSignIn: "Nazaj na prijavo",
    failed: "Prijava ali registracija ni uspela.",
    denied: "Prijava s ponudnikom Nacionalna e-identiteta je bila preklicana ali zavrnjena",
    returnToApp: /^Nazaj v aplikacijo /,
    declinedAtApp: "Prijava ali registracija je bila zavrnjena.",
  },
};

/** A phone's width, then a desktop's. */
const widths = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/**
 * The page as it is, checked at each width as every page is (layout-checks.ts), with its screenshot
 * `test-results/screenshots/<name>-<width>-<language>.png`.
 */
async function checkAtEachWidth(page: Page, name: string, language: string): Promise<void> {
  for (const viewport of widths) {
    await page.setViewportSize(viewport);
    await settle(page);
    await checkPage(page, `${name}-${viewport.width}-${language}`);
  }
}

/** From a new sign-in, the person chooses the IdP and arrives at its page; returns the flow's page. */
async function toIdp(page: Page, w: (typeof words)["en"]): Promise<string> {
  const flowId = await startFlow(page, w.signIn);
  const flowPage = page.url();
  await page.getByRole("button", { name: w.provider }).click();
  await page.getByRole("button", { name: w.redirectNow }).click();
  await page.waitForURL((url) => url.origin !== new URL(flowPage).origin);
  return `${new URL(flowPage).origin}/auth/${flowId}`;
}

for (const language of ["en", "sl"] as const) {
  test.describe(`answers of a SAML IdP (${language})`, () => {
    // A trip to the IdP, then one page checked at two widths, accessibility included.
    test.use({ locale: language === "en" ? "en-US" : "sl-SI", viewport: widths[0] });
    const w = words[language];

    test("an answer Vrata refuses is the card saying so, leading back to the sign-in", async ({
      page,
      pageErrors,
    }) => {
      const flowPage = await toIdp(page, w);
      await page.getByRole("button", { name: "Send an altered answer" }).click();
      await expect(page.getByRole("heading", { level: 1, name: w.refused })).toBeVisible();
      await expect(page.getByText(w.notFromProvider)).toBeVisible();
      expect(page.url()).toBe(`${new URL(flowPage).origin}/auth/provider/eid`);
      await checkAtEachWidth(page, "saml-refused", language);
      // The refusal is a 400, which Chromium logs as a failed load.
      dropFailedLoads(pageErrors, 400);

      // The sign-in goes on: the person may choose the IdP again, or another way.
      await page.getByRole("link", { name: w.backToSignIn }).click();
      await expect(page).toHaveURL(flowPage);
      await expect(page.getByRole("button", { name: w.provider })).toBeVisible();
    });

    test("a cancel at the IdP ends the sign-in, and the app is told access_denied", async ({ page }) => {
      const flowPage = await toIdp(page, w);
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByRole("heading", { name: w.failed })).toBeVisible();
      await expect(page.getByText(w.denied)).toBeVisible();
      expect(page.url()).toBe(flowPage);
      await checkAtEachWidth(page, "saml-cancelled", language);

      const atApp = page.waitForRequest((request) => new URL(request.url()).searchParams.has("error"));
      await page.getByRole("button", { name: w.returnToApp }).click();
      const callback = new URL((await atApp).url());
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(callback.searchParams.get("state")).toBeTruthy();
      // The app (here the console) tells the person; the test ends on a page at rest.
      await expect(page.getByRole("alert")).toContainText(w.declinedAtApp);
    });
  });
}
