import { randomUUID } from "node:crypto";
import type { Locator, Page, Request } from "@playwright/test";
import { expect } from "../fixtures.ts";
import { flowLabels, type FlowLabels } from "./labels.ts";
import { codeFrom, waitForMail } from "./mail.ts";

// Steps of the auth flow page as a person takes them, in English unless a test passes its own labels.

/** A new e-mail address on the receiver's loopback server; tests run in parallel against one server. */
/** The passphrase of accounts the specs sign up with a password (the console's `password`). */
const passphrase = "correct horse battery";

export const newEmail = (name = "e2e") => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** From the home page, "Sign in or sign up" starts the console's flow; returns the flow's ID. */
export async function startFlow(page: Page, signInLabel = "Sign in or sign up"): Promise<string> {
  await page.goto("/");
  await page.getByRole("button", { name: signInLabel }).click();
  await expect(page).toHaveURL(/\/auth\/[^/?#]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

/** Chromium logs each refused request as a failed resource; a step's 400 answers are expected. */
export function dropRefusedRequests(pageErrors: string[]): void {
  const rest = pageErrors.filter((error) => !error.includes("status of 400"));
  pageErrors.splice(0, pageErrors.length, ...rest);
}

export const identityItem = (page: Page, name: string) =>
  page.getByRole("listitem").filter({ hasText: name });

/**
 * On a flow page (of this server or of the upstream provider): signs up with a username and a
 * passphrase, selects the identity of that name and goes back to the app.
 */
export async function passwordSignUpSteps(page: Page, username: string, labels: FlowLabels): Promise<void> {
  await passwordAndIdentity(page, username, labels, labels.select);
}

/**
 * On a flow page: signs in again with the username's passphrase, continues with the identity last
 * used for the app and goes back to it.
 */
export async function passwordSignInAgainSteps(page: Page, username: string, labels: FlowLabels) {
  await passwordAndIdentity(page, username, labels, labels.continue);
}

async function passwordAndIdentity(page: Page, username: string, labels: FlowLabels, choose: string) {
  await page.getByLabel(labels.identifier, { exact: true }).fill(username);
  await page.getByRole("button", { name: labels.next }).click();
  await page.getByLabel(labels.password, { exact: true }).fill(passphrase);
  await page.getByRole("button", { name: labels.submit }).click();
  await identityItem(page, username).getByRole("button", { name: choose }).click();
  await page.getByRole("button", { name: labels.redirectNow }).click();
}

/** Selects the identity and goes back to the console, which then is signed in (its account menu shows). */
export async function selectIdentityAndReturn(page: Page, name: string): Promise<void> {
  await identityItem(page, name).getByRole("button", { name: "Select" }).click();
  await page.getByRole("button", { name: "Redirect now" }).click();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
}

/**
 * With the page's clock installed before the page loaded (`page.clock.install()`): lets more time pass
 * on it than a whole countdown takes, a second at a time, and sees the page still say it is paused and
 * go nowhere. The page's timers run as they would in that time, without the test waiting for it.
 */
export async function outlastPausedCountdown(page: Page, paused: Locator): Promise<void> {
  const navigations: string[] = [];
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      navigations.push(request.url());
  };
  page.on("request", onRequest);
  try {
    // The countdowns start at three seconds; two more leave the page time to act on a zero.
    for (let second = 0; second < 5; second++) {
      await page.clock.runFor(1_000);
      await expect(paused).toBeVisible();
    }
  } finally {
    page.off("request", onRequest);
  }
  expect(navigations, "pages opened while the countdown was paused").toEqual([]);
}

export const failureHeading = (page: Page, labels: FlowLabels) =>
  page.getByRole("heading", { name: labels.passkeySignInFailed });

/** On the passkey sign-up's form: names the new identity and creates the passkey. */
export async function namePasskeySignUp(
  page: Page,
  labels: FlowLabels,
  name: string,
  email = "",
): Promise<void> {
  await expect(page.getByLabel(labels.passkeyName, { exact: true })).toBeFocused();
  await page.getByLabel(labels.passkeyName, { exact: true }).fill(name);
  await page.getByLabel(labels.passkeyEmail, { exact: true }).fill(email);
  await page.getByRole("button", { name: labels.passkeyCreate }).click();
}

/**
 * On a new flow page with an empty authenticator: the passkey button fails, and the failure screen
 * signs up, with an identity of a new username; returns the username.
 */
export async function signUpWithPasskey(page: Page, labels: FlowLabels = flowLabels.en): Promise<string> {
  const username = `passkey-${randomUUID().slice(0, 8)}`;
  await startFlow(page, labels.signIn);
  await page.getByRole("button", { name: labels.passkeySignIn }).click();
  await expect(failureHeading(page, labels)).toBeFocused();
  await page.getByRole("button", { name: labels.passkeySignUp }).click();
  await namePasskeySignUp(page, labels, username);
  await expect(page.getByText(labels.signedUp)).toBeVisible();
  return username;
}

/** A new account that signs in with a code sent to its e-mail address only; the console is signed in. */
export async function signUpByEmail(page: Page, name = "account"): Promise<string> {
  await startFlow(page);
  const email = newEmail(name);
  await page.getByLabel("Username or e-mail address", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send a code instead" }).click();
  await page.getByLabel("Code", { exact: true }).fill(codeFrom(await waitForMail(email)));
  await page.getByRole("button", { name: "Submit" }).click();
  await selectIdentityAndReturn(page, email);
  return email;
}
