import { expect, test } from "./fixtures.ts";
import { accountMenu, newName } from "./support/console.ts";
import { identityItem, outlastPausedCountdown, passwordSignUpSteps, startFlow } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";

// Issue 16: signing up and linking an account through an upstream OpenID Connect provider, here a
// second Vrata that e2e/support/serve.ts starts and names "upstream" in the server's configuration.

const words = {
  en: {
    ...flowLabels.en,
    provider: "Sign in with Upstream Vrata",
    heading: "You will be redirected to Upstream Vrata to sign in.",
    countdown: /Redirecting in \d seconds?\./,
    paused: "Redirect is paused.",
    resume: "Resume",
  },
  sl: {
    ...flowLabels.sl,
    provider: "Prijava s ponudnikom Zgornja Vrata",
    heading: "Za prijavo boste preusmerjeni k ponudniku Zgornja Vrata.",
    countdown: /Preusmeritev čez \d sekund/,
    paused: "Preusmeritev je zaustavljena.",
    resume: "Nadaljuj",
  },
};
type Words = (typeof words)["en"];

for (const language of ["en", "sl"] as const) {
  test.describe(`signing up through the upstream provider (${language})`, () => {
    test.use({ locale: language === "en" ? "en-US" : "sl-SI" });

    test("the provider's button, a countdown that pauses and resumes, then sign-up there", async ({
      page,
    }) => {
      const w: Words = words[language];
      // Time on the page's clock passes at once where the test outlasts the paused countdown.
      await page.clock.install();
      await startFlow(page, w.signIn);
      const home = new URL(page.url()).origin;
      await page.getByRole("button", { name: w.provider }).click();
      await expect(page.getByRole("heading", { name: w.heading })).toBeFocused();
      await expect(page.getByRole("status").filter({ hasText: w.countdown })).toBeVisible();
      await page.getByRole("button", { name: w.pause, exact: true }).click();
      const paused = page.getByRole("status").filter({ hasText: w.paused });
      await expect(paused).toBeVisible();
      // Paused, it stays.
      await outlastPausedCountdown(page, paused);
      expect(new URL(page.url()).origin).toBe(home);
      await page.getByRole("button", { name: w.resume }).click();
      await page.waitForURL((url) => url.origin !== home);

      const username = newName(`up-${language}`);
      await passwordSignUpSteps(page, username, w);
      // Back here, signed up: the first identity carries the upstream's username.
      await page.waitForURL((url) => url.origin === home && url.pathname.startsWith("/auth/"));
      await expect(page.getByText(w.signedUp)).toBeVisible();
      await identityItem(page, username).getByRole("button", { name: w.select }).click();
      await page.getByRole("button", { name: w.redirectNow }).click();
      await expect(page.getByRole("button", { name: w.accountMenu })).toBeVisible();
    });
  });
}

test.describe("linking the upstream provider on the account page", () => {
  test.use({ locale: "en-US" });

  test("a person signed up with a password links the provider and can unlink it", async ({ page }) => {
    const username = newName("linker");
    await startFlow(page);
    const home = new URL(page.url()).origin;
    await passwordSignUpSteps(page, username, flowLabels.en);
    await expect(accountMenu(page)).toBeVisible();

    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "Sign-in providers" })).toBeVisible();
    await page.getByRole("button", { name: "Link Upstream Vrata" }).click();
    await page.waitForURL((url) => url.origin !== home);
    const upstreamName = newName("linked");
    await passwordSignUpSteps(page, upstreamName, flowLabels.en);
    await page.waitForURL((url) => url.origin === home && url.pathname === "/account");
    await expect(page.getByRole("status").filter({ hasText: "Upstream Vrata is linked." })).toBeVisible();
    await expect(page.getByText(`Linked as ${upstreamName}`)).toBeVisible();

    await page.getByRole("button", { name: `Unlink Upstream Vrata (${upstreamName})` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Upstream Vrata was unlinked." })).toBeVisible();
    await expect(page.getByRole("button", { name: "Link Upstream Vrata" })).toBeVisible();
  });
});
