import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Page } from "@playwright/test";
import { createAccount } from "../src/server/accounts/accounts.ts";
import { normalizeIdentifier } from "../src/server/accounts/normalize.ts";
import { hashPassword } from "../src/server/accounts/passwords.ts";
import { createIdentity } from "../src/server/identities/identities.ts";
import { newId } from "../src/server/ids.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { expect, test } from "./fixtures.ts";
import { dropRefusedRequests, newEmail, startFlow } from "./support/flow.ts";
import { flowLabels } from "./support/labels.ts";
import { checkAtBothWidths } from "./support/layout-checks.ts";
import { codeFrom, waitForMail } from "./support/mail.ts";

// What the sign-in card says where a newcomer meets it, in both languages: a flow that expired while
// its page was open, a server that cannot be reached, a code asked for with a username, the code step
// after a password with its wait before another code, and the identity step of a new account.

const texts = {
  en: {
    expired: "This sign-in page does not exist or has expired.",
    notFound: "The requested item was not found.",
    unreachable: "Vrata cannot be reached. Check your connection and try again.",
    sendCode: "Send a code instead",
    noEmails:
      "There is no e-mail address associated with the provided username. A code can be sent only to an e-mail address: enter one instead, or use a password.",
    wrongPassword: (username: string) =>
      `Wrong password or passphrase. We sent a code to the e-mail addresses of the account ${username}: enter it to sign in.`,
    afterPassword: (email: string) =>
      `We sent a code to ${email}. If this address already has an account, the password was wrong and the code signs you in instead; if the address is new, the code confirms it is yours.`,
    resendIn: /^Resend code \((\d+) s\)$/,
    available: "Available identities",
    otherAvailable: "Other available identities",
  },
  sl: {
    expired: "Ta stran za prijavo ne obstaja ali pa je potekla.",
    notFound: "Zahtevanega elementa ni mogoče najti.",
    unreachable: "Vrata niso dosegljiva. Preverite povezavo in poskusite znova.",
    sendCode: "Namesto tega pošlji kodo",
    noEmails:
      "Z vnesenim uporabniškim imenom ni povezan noben e-poštni naslov. Kodo lahko pošljemo le na e-poštni naslov: vnesite ga namesto uporabniškega imena ali pa uporabite geslo.",
    wrongPassword: (username: string) =>
      `Napačno geslo ali geselna fraza. Kodo smo poslali na e-poštne naslove računa ${username}: vnesite jo, da se prijavite.`,
    afterPassword: (email: string) =>
      `Kodo smo poslali na ${email}. Če ima ta naslov že račun, je bilo geslo napačno in se boste prijavili s kodo; če je naslov nov, koda potrdi, da je vaš.`,
    resendIn: /^Ponovno pošlji kodo \((\d+) s\)$/,
    available: "Razpoložljive identitete",
    otherAvailable: "Druge razpoložljive identitete",
  },
} as const;

const newUsername = () => `card-${randomUUID().slice(0, 8)}`;

/**
 * An account with a username, an e-mail address and a password, written straight into the server's
 * store: an account gets both only from an import, which the pages do not offer.
 */
async function seedAccountWithEmail(username: string, email: string, password: string): Promise<void> {
  const file = path.join(process.env.VRATA_E2E_DATA ?? "", "vrata.sqlite");
  const db = await openDatabase({ database: { kind: "sqlite", file } });
  try {
    const [name, address] = [normalizeIdentifier(username), normalizeIdentifier(email)];
    if (typeof name === "string" || typeof address === "string") throw new Error("not an identifier");
    const accountId = newId();
    await createAccount(db, accountId, {
      username: name,
      email: address,
      passwordHash: await hashPassword(password),
    });
    await createIdentity(db, accountId, { username });
  } finally {
    await db.destroy();
  }
}

for (const language of ["en", "sl"] as const) {
  test.describe(`the sign-in card (${language})`, () => {
    test.use({ locale: language === "en" ? "en-US" : "sl-SI" });
    const l = flowLabels[language];
    const w = texts[language];
    const identifierField = (page: Page) => page.getByLabel(l.identifier, { exact: true });
    const passwordField = (page: Page) => page.getByLabel(l.password, { exact: true });

    async function toPasswordStep(page: Page, identifier: string): Promise<string> {
      const flowId = await startFlow(page, l.signIn);
      await identifierField(page).fill(identifier);
      await page.getByRole("button", { name: l.next }).click();
      await expect(passwordField(page)).toBeFocused();
      return flowId;
    }

    test("a flow that is gone when the person goes on shows the page that says it expired", async ({
      page,
      pageErrors,
    }) => {
      const flowId = await toPasswordStep(page, newUsername());
      // The server's own answer for a flow that is no longer there: the step is sent for an ID that
      // names none, as it is once the flow has expired (the server's tests expire one for real).
      const vanished = "x".repeat(flowId.length);
      await page.route(`**/api/auth/passwordComplete/${flowId}`, (route) =>
        route.continue({ url: route.request().url().replace(flowId, vanished) }),
      );
      await passwordField(page).fill("a long enough passphrase");
      await page.getByRole("button", { name: l.submit }).click();
      await expect(page.getByRole("heading", { level: 1, name: w.expired })).toBeVisible();
      await expect(page.getByText(w.notFound)).toHaveCount(0);
      await expect(page).toHaveTitle(new RegExp(`^${w.expired}`));
      await checkAtBothWidths(page, `card-expired-${language}`);
      pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((error) => !error.includes("404")));
    });

    test("a flow that is gone when the person asks for a passkey shows the same page", async ({
      page,
      pageErrors,
    }) => {
      const flowId = await startFlow(page, l.signIn);
      await expect(identifierField(page)).toBeFocused();
      const vanished = "x".repeat(flowId.length);
      await page.route(`**/api/auth/passkeyGetStart/${flowId}`, (route) =>
        route.continue({ url: route.request().url().replace(flowId, vanished) }),
      );
      await page.getByRole("button", { name: l.passkeySignIn }).click();
      await expect(page.getByRole("heading", { level: 1, name: w.expired })).toBeVisible();
      await expect(page.getByText(w.notFound)).toHaveCount(0);
      pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((error) => !error.includes("404")));
    });

    test("a server that cannot be reached is named as such, on the card and in the console", async ({
      page,
      pageErrors,
    }) => {
      const flowId = await startFlow(page, l.signIn);
      await page.route(`**/api/auth/passwordStart/${flowId}`, (route) => route.abort("internetdisconnected"));
      await identifierField(page).fill(newUsername());
      await page.getByRole("button", { name: l.next }).click();
      await expect(page.getByRole("alert")).toHaveText(w.unreachable);
      await expect(identifierField(page)).toBeVisible();
      await checkAtBothWidths(page, `card-unreachable-${language}`);

      // The console loads its context first; without any answer it says why it shows nothing.
      await page.route("**/context.json", (route) => route.abort("internetdisconnected"));
      await page.goto("/");
      await expect(page.getByRole("alert")).toHaveText(w.unreachable);
      await checkAtBothWidths(page, `console-unreachable-${language}`);
      pageErrors.splice(
        0,
        pageErrors.length,
        ...pageErrors.filter((error) => !error.includes("ERR_INTERNET_DISCONNECTED")),
      );
    });

    test("a code asked for with a username gets the same answer whether the username has an account or not, and a new account's one identity is not called other", async ({
      page,
      browser,
      pageErrors,
    }) => {
      // An account with a username and a password, and no e-mail address.
      const existing = newUsername();
      await toPasswordStep(page, existing);
      await passwordField(page).fill("correct horse battery");
      await page.getByRole("button", { name: l.submit }).click();
      await expect(page.getByRole("heading", { name: l.chooseIdentity })).toBeVisible();
      await expect(page.getByRole("heading", { name: w.available, exact: true })).toBeVisible();
      await expect(page.getByRole("heading", { name: w.otherAvailable })).toHaveCount(0);
      await checkAtBothWidths(page, `card-identity-new-account-${language}`);

      const context = await browser.newContext({ locale: language === "en" ? "en-US" : "sl-SI" });
      const other = await context.newPage();
      const answers: string[] = [];
      for (const username of [existing, newUsername()]) {
        await startFlow(other, l.signIn);
        await identifierField(other).fill(username);
        await other.getByRole("button", { name: w.sendCode }).click();
        await expect(identifierField(other)).toHaveAccessibleDescription(new RegExp(w.noEmails.slice(0, 40)));
        answers.push((await other.locator("#main form").innerText()).replace(username, "…"));
      }
      expect(answers[1]).toBe(answers[0]);
      await expect(other.getByText(w.noEmails)).toBeVisible();
      await checkAtBothWidths(other, `card-code-for-username-${language}`);
      await context.close();
      dropRefusedRequests(pageErrors);
    });

    test("the code step after a password says why a code was sent, and Resend code counts down its wait", async ({
      page,
    }) => {
      const email = newEmail("card");
      await toPasswordStep(page, email);
      await passwordField(page).fill("correct horse battery");
      await page.getByRole("button", { name: l.submit }).click();
      await expect(page.getByText(w.afterPassword(email))).toBeVisible();
      const resend = page.getByRole("button", { name: w.resendIn });
      await expect(resend).toBeDisabled();
      const seconds = Number(w.resendIn.exec((await resend.textContent()) ?? "")?.[1]);
      await expect(resend).toHaveText(w.resendIn);
      await expect
        .poll(async () => Number(w.resendIn.exec((await resend.textContent()) ?? "")?.[1]))
        .toBeLessThan(seconds);
      await checkAtBothWidths(page, `card-code-after-password-${language}`);
    });

    test("a wrong password for a username with an e-mail address says so on the code step, and the code signs in", async ({
      page,
    }) => {
      const username = newUsername();
      const email = newEmail("card-wrong");
      await seedAccountWithEmail(username, email, "correct horse battery");
      await toPasswordStep(page, username);
      await passwordField(page).fill("not the passphrase");
      await page.getByRole("button", { name: l.submit }).click();
      await expect(page.getByText(w.wrongPassword(username))).toBeVisible();
      await expect(page.getByLabel(l.code, { exact: true })).toBeFocused();
      await checkAtBothWidths(page, `card-code-after-wrong-password-${language}`);

      await page.getByLabel(l.code, { exact: true }).fill(codeFrom(await waitForMail(email)));
      await page.getByRole("button", { name: l.submit }).click();
      await expect(page.getByText(l.signedIn)).toBeVisible();
    });
  });
}
