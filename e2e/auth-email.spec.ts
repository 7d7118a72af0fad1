import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures.ts";
import {
  dropRefusedRequests,
  identityItem,
  newEmail,
  selectIdentityAndReturn,
  startFlow,
} from "./support/flow.ts";
import { maxFlowAttempts } from "../src/common/limits.ts";
import { codeFrom, codeLinkFrom, mailsTo, refusedMailDomain, waitForMail } from "./support/mail.ts";
import { flowLabels } from "./support/labels.ts";

// E-mail codes (reference §4.7.1, §4.7.2, §11.2): the server sends real e-mail over SMTP to the
// receiver of e2e/support/serve.ts, and the tests read the codes from it.

const password = "correct horse battery";

const identifierField = (page: Page) => page.getByLabel("Username or e-mail address", { exact: true });
const passwordField = (page: Page) => page.getByLabel("Password or passphrase", { exact: true });
const codeField = (page: Page) => page.getByLabel("Code", { exact: true });
const codesSent = (page: Page) => page.getByRole("status");
const steps = (page: Page) => page.getByRole("navigation", { name: "Steps" }).getByRole("listitem");

/** From the start step, "Send a code instead" sends a code to the address and shows the code step. */
async function sendCode(page: Page, email: string): Promise<void> {
  await identifierField(page).fill(email);
  await page.getByRole("button", { name: "Send a code instead" }).click();
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  await expect(page.getByText(`Enter the code we sent to ${email}.`)).toBeVisible();
  await expect(codeField(page)).toBeFocused();
}

async function enterCode(page: Page, code: string): Promise<void> {
  await codeField(page).fill(code);
  await page.getByRole("button", { name: "Submit" }).click();
}

/** Next and a password from the start step. */
async function enterPassword(page: Page, email: string, value: string): Promise<void> {
  await identifierField(page).fill(email);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(passwordField(page)).toBeFocused();
  await passwordField(page).fill(value);
  await page.getByRole("button", { name: "Submit" }).click();
}

/** The code the e-mail brings, after checking the e-mail is the code e-mail for this flow. */
async function codeMailed(email: string, flowId: string, baseURL: string | undefined, count = 1) {
  const mail = await waitForMail(email, count);
  expect(mail.to).toEqual([email]);
  expect(mail.subject).toBe("Your code for Vrata");
  const code = codeFrom(mail);
  expect(codeLinkFrom(mail)).toBe(`${baseURL}/auth/${flowId}#code=${code}`);
  expect(mail.text).toContain(
    `Your code to sign in or sign up to the app “Console” through Vrata is:\n\n${code}\n`,
  );
  return code;
}

/** The browser reports the step's 503 in its console: expected here. */
const dropUnavailable = (pageErrors: string[]) =>
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((error) => !error.includes("status of 503")));

const codeHint = "The e-mail can take a few minutes to arrive. If you do not see it, check your spam folder.";
/** The code step after a password for an address: the same whether the address has an account or not. */
const afterPassword = (email: string) =>
  `We sent a code to ${email}. If this address already has an account, the password was wrong and the code signs you in instead; if the address is new, the code confirms it is yours.`;

/** Signs a new e-mail address up with a password, which needs the code from the e-mail. */
async function signUpWithPassword(page: Page, email: string, flowId: string, baseURL: string | undefined) {
  await enterPassword(page, email, password);
  // There is no account yet: the address is proven with a code before the account is made.
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  await expect(page.getByText(afterPassword(email))).toBeVisible();
  await expect(codeField(page)).toBeFocused();
  await expect(steps(page)).toHaveText([/Start$/, /Password$/, /Code$/, /Identity$/, /Redirect$/]);
  await enterCode(page, await codeMailed(email, flowId, baseURL));
  await expect(page.getByText("You signed up.")).toBeVisible();
}

/** Back on the identity step forgets the sign-in: the person proves who they are again. */
async function startOver(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Back" }).click();
  await expect(identifierField(page)).toBeFocused();
}

test.describe("e-mail code in English", () => {
  test.use({ locale: "en-US" });

  test("a code the mail server refuses is reported, and the person stays to try again", async ({
    page,
    pageErrors,
  }) => {
    await startFlow(page);
    const email = `refused-${randomUUID().slice(0, 8)}${refusedMailDomain}`;
    await identifierField(page).fill(email);
    await page.getByRole("button", { name: "Send a code instead" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "The code could not be sent. Please try again in a moment.",
    );
    await expect(identifierField(page)).toHaveValue(email);
    await expect(page.getByRole("heading", { name: "Enter the code" })).toHaveCount(0);
    dropUnavailable(pageErrors);
  });

  test("a new e-mail address signs up with the code from the e-mail", async ({ page, baseURL }) => {
    const flowId = await startFlow(page);
    const email = newEmail("erin");
    await sendCode(page, email);
    await expect(codesSent(page)).toHaveText("1 code sent");
    await expect(codeField(page)).toHaveAccessibleDescription(codeHint);
    await expect(steps(page)).toHaveText([/Start$/, /Code$/, /Identity$/, /Redirect$/]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await enterCode(page, await codeMailed(email, flowId, baseURL));
    await expect(page.getByText("You signed up.")).toBeVisible();
    // The sign-up made an identity from the e-mail address.
    await expect(identityItem(page, email)).toBeVisible();
    await selectIdentityAndReturn(page, email);
  });

  test("the e-mail's link, opened in the same browser, fills in the code and warns; submitting it signs up", async ({
    page,
    baseURL,
    pageErrors,
  }) => {
    const flowId = await startFlow(page);
    const email = newEmail("link");
    await sendCode(page, email);
    const mail = await waitForMail(email);
    const code = codeFrom(mail);

    // E-mail programs open links in a new tab.
    const tab = await page.context().newPage();
    tab.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    tab.on("pageerror", (error) => pageErrors.push(`page: ${error.message}`));
    await tab.goto(codeLinkFrom(mail));
    await expect(codeField(tab)).toHaveValue(code);
    await expect(
      tab.getByText(
        "The code was filled in from the link in the e-mail. Confirm it only if you started signing in or up to Console yourself.",
      ),
    ).toBeVisible();
    await expect(tab.getByRole("button", { name: "Submit" })).toBeFocused();
    // The code does not stay in the address.
    await expect(tab).toHaveURL(`${baseURL}/auth/${flowId}`);
    expect(await seriousAccessibilityViolations(tab)).toEqual([]);

    await tab.getByRole("button", { name: "Submit" }).click();
    await expect(tab.getByText("You signed up.")).toBeVisible();
    await selectIdentityAndReturn(tab, email);
  });

  // Opening the link in the tab where the flow is open changes only the address's fragment.
  test("the e-mail's link, opened in the tab where the flow is open, fills in the code", async ({
    page,
    baseURL,
  }) => {
    const flowId = await startFlow(page);
    const email = newEmail("same-tab");
    await sendCode(page, email);
    const mail = await waitForMail(email);
    await page.goto(codeLinkFrom(mail));
    await expect(codeField(page)).toHaveValue(codeFrom(mail));
    await expect(page.getByText("The code was filled in from the link in the e-mail.")).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/auth/${flowId}`);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("You signed up.")).toBeVisible();
  });

  test("Resend code counts down its wait on the button, disabled until then, and the code sent still works", async ({
    page,
    baseURL,
  }) => {
    const flowId = await startFlow(page);
    const email = newEmail("resend");
    await sendCode(page, email);
    await expect(codesSent(page)).toHaveText("1 code sent");

    // The server sends a new code only 30 seconds after the last one: the button says how long is left.
    const resend = page.getByRole("button", { name: /^Resend code \(\d+ s\)$/ });
    await expect(resend).toBeDisabled();
    const first = Number(/\((\d+) s\)/.exec((await resend.textContent()) ?? "")?.[1]);
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThanOrEqual(30);
    await expect(resend).toHaveText(`Resend code (${first - 1} s)`);
    await expect(codeField(page)).toHaveAccessibleDescription(codeHint);
    expect(await mailsTo(email)).toHaveLength(1);

    await enterCode(page, await codeMailed(email, flowId, baseURL));
    await expect(page.getByText("You signed up.")).toBeVisible();
  });

  test("a wrong code says so; the right one, typed with spaces, signs up", async ({
    page,
    baseURL,
    pageErrors,
  }) => {
    const flowId = await startFlow(page);
    const email = newEmail("wrong-code");
    await sendCode(page, email);
    const code = await codeMailed(email, flowId, baseURL);

    const stepRequests: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") stepRequests.push(new URL(request.url()).pathname);
    });
    await enterCode(page, "123");
    await expect(page.getByText("Code should be 6 digits.")).toBeVisible();
    expect(stepRequests).toEqual([]);

    await enterCode(page, code === "000000" ? "111111" : "000000");
    const invalid = "Code is invalid. Please try again.";
    await expect(page.getByText(invalid)).toBeVisible();
    await expect(codeField(page)).toBeFocused();
    await expect(codeField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(codeField(page)).toHaveAccessibleDescription(`${codeHint} ${invalid}`);
    expect(stepRequests).toEqual([`/api/auth/codeComplete/${flowId}`]);

    await enterCode(page, ` ${code.slice(0, 3)} ${code.slice(3)} `);
    await expect(page.getByText("You signed up.")).toBeVisible();
    dropRefusedRequests(pageErrors);
  });

  test("an e-mail address and password sign up with the code; then the password signs in without one", async ({
    page,
    baseURL,
  }) => {
    const flowId = await startFlow(page);
    const email = newEmail("password");
    await signUpWithPassword(page, email, flowId, baseURL);

    await startOver(page);
    await enterPassword(page, email, password);
    await expect(page.getByText("You signed in.")).toBeVisible();
    expect(await mailsTo(email)).toHaveLength(1);
    await selectIdentityAndReturn(page, email);
  });

  test("a wrong password for an e-mail address moves on to a code, and the code signs in", async ({
    page,
    baseURL,
    pageErrors,
  }) => {
    const flowId = await startFlow(page);
    const email = newEmail("recover");
    await signUpWithPassword(page, email, flowId, baseURL);
    const signUpCode = codeFrom(await waitForMail(email));

    await startOver(page);
    await enterPassword(page, email, "not the password");
    // Not an error: a code goes to the address instead, said as it is said to a new address.
    await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
    await expect(page.getByText(afterPassword(email))).toBeVisible();
    await expect(codeField(page)).toBeFocused();
    await expect(
      page.getByText("Wrong password or passphrase for the account with the provided username."),
    ).toBeHidden();
    await expect(codesSent(page)).toHaveText("1 code sent");
    const code = await codeMailed(email, flowId, baseURL, 2);

    // The code that signed up was used up with the sign-up.
    if (signUpCode !== code) {
      await enterCode(page, signUpCode);
      await expect(page.getByText("Code is invalid. Please try again.")).toBeVisible();
    }
    await enterCode(page, code);
    await expect(page.getByText("You signed in.")).toBeVisible();
    await selectIdentityAndReturn(page, email);
    dropRefusedRequests(pageErrors);
  });

  test("ten wrong codes fail the flow: the page says so in either language and scheme, and returns to the app", async ({
    page,
    baseURL,
    pageErrors,
  }) => {
    // Ten round trips and three accessibility scans.
    test.slow();
    await startFlow(page);
    await sendCode(page, newEmail("fail"));
    for (let attempt = 1; attempt <= maxFlowAttempts; attempt++) {
      const answer = page.waitForResponse((response) => response.url().includes("/api/auth/codeComplete/"));
      await enterCode(page, "000000");
      await answer;
    }
    const heading = page.getByRole("heading", { name: "Signing in or up failed." });
    await expect(heading).toBeFocused();
    await expect(
      page.getByText(
        "There were too many unsuccessful attempts. Console will be told that you did not sign in or up.",
      ),
    ).toBeVisible();
    await expect(codeField(page)).toHaveCount(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole("combobox", { name: "Language" }).selectOption("sl");
    await expect(page.getByRole("heading", { name: "Prijava ali registracija ni uspela." })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Nazaj v aplikacijo Konzola" }).click();
    await expect(page.getByRole("alert")).toContainText("Prijava ali registracija je bila zavrnjena.");
    expect(page.url()).toBe(`${baseURL}/`);
    dropRefusedRequests(pageErrors);
  });
});

/** How many pixels the page is wider than the window: 0 when nothing overflows sideways. */
const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// Every step of a sign-up with a password and a code, in both languages and colour schemes, on a phone
// and on a desktop screen: nothing overflows sideways and axe finds nothing serious.
const walks = [
  { language: "en", locale: "en-US", colorScheme: "light", width: 390 },
  { language: "en", locale: "en-US", colorScheme: "dark", width: 1280 },
  { language: "sl", locale: "sl-SI", colorScheme: "light", width: 1280 },
  { language: "sl", locale: "sl-SI", colorScheme: "dark", width: 390 },
] as const;

for (const { language, locale, colorScheme, width } of walks) {
  test.describe(`every step in ${locale}, ${colorScheme}, at ${width} px`, () => {
    test.use({ locale, colorScheme, viewport: { width, height: 800 } });

    test("is accessible and fits the window", async ({ page, pageErrors }) => {
      test.slow();
      const labels = flowLabels[language];
      const check = async (step: string) => {
        expect(await seriousAccessibilityViolations(page), step).toEqual([]);
        expect(await horizontalOverflow(page), step).toBe(0);
      };
      const flowId = await startFlow(page, labels.signIn);
      await check("start");
      const identifier = page.getByLabel(labels.identifier, { exact: true });
      await identifier.fill("ab");
      await page.getByRole("button", { name: labels.next }).click();
      await expect(identifier).toHaveAttribute("aria-invalid", "true");
      await check("start with a mistake");

      const email = newEmail(`walk-${language}-${colorScheme}`);
      await identifier.fill(email);
      await page.getByRole("button", { name: labels.next }).click();
      await expect(page.getByLabel(labels.password, { exact: true })).toBeFocused();
      await check("password");

      await page.getByLabel(labels.password, { exact: true }).fill(password);
      await page.getByRole("button", { name: labels.submit }).click();
      await expect(page.getByLabel(labels.code, { exact: true })).toBeFocused();
      await check("code");

      await page.getByLabel(labels.code, { exact: true }).fill(codeFrom(await waitForMail(email)));
      await page.getByRole("button", { name: labels.submit }).click();
      await expect(identityItem(page, email)).toBeVisible();
      await check("identity");
      await page.getByRole("button", { name: labels.create }).click();
      await check("new identity");
      await page.getByRole("button", { name: labels.cancel }).click();

      await identityItem(page, email).getByRole("button", { name: labels.select }).click();
      await page.getByRole("button", { name: labels.pause }).click();
      await check("redirect");
      await page.getByRole("button", { name: labels.redirectNow }).click();
      await expect(page.getByRole("button", { name: labels.accountMenu })).toBeVisible();

      await page.goto(`/auth/${flowId}`);
      await expect(page.getByRole("heading", { name: labels.finished })).toBeFocused();
      await check("finished");
      dropRefusedRequests(pageErrors);
    });
  });
}

test.describe("e-mail code in Slovenian", () => {
  test.use({ locale: "sl-SI" });

  test("a code the mail server refuses is reported in Slovenian", async ({ page, pageErrors }) => {
    await startFlow(page, "Prijavi ali registriraj se");
    const field = page.getByLabel("Uporabniško ime ali e-poštni naslov", { exact: true });
    await field.fill(`zavrnjen-${randomUUID().slice(0, 8)}${refusedMailDomain}`);
    await page.getByRole("button", { name: "Namesto tega pošlji kodo" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Kode ni bilo mogoče poslati. Poskusite znova čez trenutek.",
    );
    dropUnavailable(pageErrors);
  });

  test("the code e-mail and the code step speak Slovenian", async ({ page, baseURL, pageErrors }) => {
    const flowId = await startFlow(page, "Prijavi ali registriraj se");
    const email = newEmail("spela");
    await page.getByLabel("Uporabniško ime ali e-poštni naslov", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Namesto tega pošlji kodo" }).click();
    await expect(page.getByRole("heading", { name: "Vnesite kodo" })).toBeVisible();
    await expect(page.getByText(`Vnesite kodo, ki smo jo poslali na ${email}.`)).toBeVisible();
    await expect(codesSent(page)).toHaveText("1 poslana koda");

    const mail = await waitForMail(email);
    expect(mail.subject).toBe("Vaša koda za storitev Vrata");
    const code = codeFrom(mail);
    expect(mail.text).toContain(
      `Vaša koda za prijavo ali registracijo v aplikacijo „Console“ prek storitve Vrata je:\n\n${code}\n`,
    );
    expect(mail.text).toContain(`odprete to povezavo: ${baseURL}/auth/${flowId}#code=${code}`);
    expect(mail.text).toContain("Koda velja 10 minut.");

    const field = page.getByLabel("Koda", { exact: true });
    await field.fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Potrdi" }).click();
    await expect(page.getByText("Koda ni veljavna. Poskusite znova.")).toBeVisible();
    await field.fill(code);
    await page.getByRole("button", { name: "Potrdi" }).click();
    await expect(page.getByText("Registrirali ste se.")).toBeVisible();
    dropRefusedRequests(pageErrors);
  });
});
