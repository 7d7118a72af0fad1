import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { addVirtualAuthenticator } from "./support/authenticator.ts";
import { addRelyingPartyApp, consoleCaller, newName, password, signUp } from "./support/console.ts";
import { dropRefusedRequests, identityItem } from "./support/flow.ts";
import { flowLabels, type FlowLabels } from "./support/labels.ts";
import { checkInBothSchemes } from "./support/layout-checks.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";

// The second factor on the sign-in card, against an organization whose policy asks for one: setting
// up an authenticator app or a passkey in the flow, the recovery codes shown once, and later sign-ins
// with the app's code (computed by oathtool, not by Vrata), a recovery code and the passkey. Each new
// state of the card is checked and photographed at both widths, light and dark, in each language.

const texts = {
  en: {
    setUpHeading: "Set up two-step verification",
    organizationAsks: (organization: string) => `${organization} requires a second step to sign in.`,
    authenticatorApp: /^Authenticator app/,
    passkeyOption: /^Passkey/,
    qrAlt: "QR code to add your account to an authenticator app",
    key: "Key",
    setUpCode: "Code from the app",
    turnOn: "Turn on",
    recoveryHeading: "Save your recovery codes",
    recoveryList: "10 recovery codes",
    saved: "I have saved these codes",
    savedRequired: "Confirm that you saved the codes before you continue.",
    continue: "Continue",
    heading: "Two-step verification",
    totpCode: "Code from the authenticator app",
    verify: "Verify",
    invalidCode: "Code is invalid. Please try again.",
    useRecoveryCode: "Use a recovery code",
    recoveryCode: "Recovery code",
    usePasskey: "Use a passkey",
  },
  sl: {
    setUpHeading: "Nastavite preverjanje v dveh korakih",
    organizationAsks: (organization: string) => `${organization} za prijavo zahteva še drugi korak.`,
    authenticatorApp: /^Aplikacija za preverjanje pristnosti/,
    passkeyOption: /^Ključ za dostop/,
    qrAlt: "Koda QR za dodajanje računa v aplikacijo za preverjanje pristnosti",
    key: "Ključ",
    setUpCode: "Koda iz aplikacije",
    turnOn: "Vklopi",
    recoveryHeading: "Shranite obnovitvene kode",
    recoveryList: "10 obnovitvenih kod",
    saved: "Kode imam shranjene na varnem",
    savedRequired: "Preden nadaljujete, potrdite, da ste kode shranili.",
    continue: "Nadaljuj",
    heading: "Preverjanje v dveh korakih",
    totpCode: "Koda iz aplikacije za preverjanje pristnosti",
    verify: "Preveri",
    invalidCode: "Koda ni veljavna. Poskusite znova.",
    useRecoveryCode: "Uporabi obnovitveno kodo",
    recoveryCode: "Obnovitvena koda",
    usePasskey: "Uporabi ključ za dostop",
  },
} as const;

type Language = keyof typeof texts;
type Texts = (typeof texts)[Language];

/** The authenticator app's code for the key, now or `offsetSeconds` later, as oathtool computes it. */
function totpCode(secret: string, offsetSeconds = 0): string {
  const at = new Date(Date.now() + offsetSeconds * 1000).toISOString();
  return execFileSync("oathtool", ["--totp", "-b", `--now=${at}`, secret], { encoding: "utf8" }).trim();
}

interface Setting {
  readonly page: Page;
  readonly relyingParty: RelyingParty;
  readonly language: Language;
  readonly username: string;
  readonly organization: string;
}

/**
 * A person with a password account, and an app of a new organization that requires a second factor;
 * the browser is then signed out of Vrata, so that the app's sign-in starts at the password.
 */
async function personAndStrictApp(
  page: Page,
  origin: string,
  relyingParty: RelyingParty,
  language: Language,
): Promise<Setting> {
  const username = newName("second");
  await page.goto("/");
  await signUp(page, username);
  const call = await consoleCaller(page);
  const organization = await addRelyingPartyApp(call, origin, relyingParty, newName("Library"), {
    signInPolicy: "secondFactor",
  });
  return { page, relyingParty, language, username, organization };
}

/** A new sign-in to the app in a browser signed out of Vrata, up to the step after the password. */
async function passwordToApp({ page, relyingParty, language, username }: Setting): Promise<void> {
  const labels = flowLabels[language];
  await page.context().clearCookies();
  await page.goto(`${relyingParty.base}/login?ui_locales=${language}`);
  await page.getByLabel(labels.identifier, { exact: true }).fill(username);
  await page.getByRole("button", { name: labels.next }).click();
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: labels.submit }).click();
}

/** From the identity step: the person's identity, and back to the app; returns the ID token's claims. */
async function identityAndBack(page: Page, labels: FlowLabels, username: string) {
  await identityItem(page, username)
    .getByRole("button", { name: new RegExp(`^(${labels.select}|${labels.continue})$`) })
    .click();
  await page.getByRole("button", { name: labels.redirectNow }).click();
  const claims = page.locator("#claims");
  await expect(claims).toBeVisible();
  return JSON.parse((await claims.textContent()) ?? "{}") as { amr?: string[]; acr?: string };
}

/**
 * The recovery codes shown after the first second factor is set up: read, and confirmed as saved;
 * `name` photographs them.
 */
async function saveRecoveryCodes(page: Page, text: Texts, name?: string): Promise<string[]> {
  await expect(page.getByRole("heading", { name: text.recoveryHeading })).toBeFocused();
  const list = page.getByRole("list", { name: text.recoveryList });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const codes = await list.getByRole("listitem").allTextContents();
  if (name) await checkInBothSchemes(page, `${name}-recovery-codes`);
  // Going on needs the person to say they saved them.
  await page.getByRole("button", { name: text.continue, exact: true }).click();
  await expect(page.getByText(text.savedRequired)).toBeVisible();
  await page.getByLabel(text.saved).check();
  await page.getByRole("button", { name: text.continue, exact: true }).click();
  return codes;
}

async function withRelyingParty(run: (relyingParty: RelyingParty) => Promise<void>): Promise<void> {
  const relyingParty = await startRelyingParty();
  try {
    await run(relyingParty);
  } finally {
    await relyingParty.close();
  }
}

/**
 * On the set-up step: the authenticator app, confirmed with oathtool's code for the key the page
 * shows (in groups of four, as a person reads it); returns the key. `name` photographs each state.
 */
async function setUpAuthenticatorApp(page: Page, text: Texts, name?: string): Promise<string> {
  await page.getByRole("button", { name: text.authenticatorApp }).click();
  await expect(page.getByRole("img", { name: text.qrAlt })).toBeVisible();
  const shownKey = (await page.getByLabel(text.key, { exact: true }).textContent()) ?? "";
  expect(shownKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  if (name) await checkInBothSchemes(page, `${name}-authenticator-app`);
  const secret = shownKey.replaceAll(" ", "");
  await page.getByLabel(text.setUpCode, { exact: true }).fill(totpCode(secret));
  await page.getByRole("button", { name: text.turnOn }).click();
  return secret;
}

for (const language of ["en", "sl"] as const) {
  const labels = flowLabels[language];
  const text = texts[language];

  test(`an organization's second factor in ${language}: an authenticator app set up in the flow, and its recovery codes shown once`, async ({
    page,
    baseURL,
  }) => {
    // Each new state is checked at two widths in two schemes.
    test.slow();
    await withRelyingParty(async (relyingParty) => {
      const setting = await personAndStrictApp(page, baseURL ?? "", relyingParty, language);
      const name = `second-factor-${language}`;

      // The password is right, and the organization asks for more: the person sets up an app.
      await passwordToApp(setting);
      await expect(page.getByRole("heading", { name: text.setUpHeading })).toBeFocused();
      await expect(page.getByText(text.organizationAsks(setting.organization))).toBeVisible();
      await checkInBothSchemes(page, `${name}-set-up`);
      await setUpAuthenticatorApp(page, text, name);

      const codes = await saveRecoveryCodes(page, text, name);
      await expect(page.getByRole("heading", { name: labels.chooseIdentity })).toBeFocused();
      // The codes were in that one answer: a reload goes on at the identity without them.
      await page.reload();
      await expect(page.getByRole("heading", { name: labels.chooseIdentity })).toBeVisible();
      await expect(page.getByText(codes[0] ?? "-")).toHaveCount(0);
      const claims = await identityAndBack(page, labels, setting.username);
      expect(claims.acr).toBe("aal2");
    });
  });

  test(`later sign-ins in ${language}: the authenticator app's code after the password, or a recovery code instead`, async ({
    page,
    baseURL,
    pageErrors,
  }) => {
    test.slow();
    await withRelyingParty(async (relyingParty) => {
      const setting = await personAndStrictApp(page, baseURL ?? "", relyingParty, language);
      const name = `second-factor-${language}`;
      await passwordToApp(setting);
      const secret = await setUpAuthenticatorApp(page, text);
      const codes = await saveRecoveryCodes(page, text);
      await identityAndBack(page, labels, setting.username);

      // The next sign-in asks for the app's code; a code of another time is refused. The code of the
      // next period is one the set-up cannot have used.
      await passwordToApp(setting);
      await expect(page.getByLabel(text.totpCode, { exact: true })).toBeFocused();
      await checkInBothSchemes(page, `${name}-code`);
      await page.getByLabel(text.totpCode, { exact: true }).fill(totpCode(secret, -3600));
      await page.getByRole("button", { name: text.verify }).click();
      await expect(page.getByText(text.invalidCode)).toBeVisible();
      dropRefusedRequests(pageErrors);
      await page.getByLabel(text.totpCode, { exact: true }).fill(totpCode(secret, 30));
      await page.getByRole("button", { name: text.verify }).click();
      const second = await identityAndBack(page, labels, setting.username);
      expect(second.amr).toEqual(expect.arrayContaining(["pwd", "otp", "mfa"]));

      // Without the phone: a recovery code instead.
      await passwordToApp(setting);
      await page.getByRole("button", { name: text.useRecoveryCode }).click();
      await expect(page.getByLabel(text.recoveryCode, { exact: true })).toBeFocused();
      await checkInBothSchemes(page, `${name}-recovery-code`);
      await page.getByLabel(text.recoveryCode, { exact: true }).fill(codes[3] ?? "");
      await page.getByRole("button", { name: text.verify }).click();
      const third = await identityAndBack(page, labels, setting.username);
      expect(third.acr).toBe("aal2");
    });
  });

  test(`a passkey as the second factor in ${language}: set up in the flow, then used after the password`, async ({
    page,
    baseURL,
  }) => {
    test.slow();
    const authenticator = await addVirtualAuthenticator(page);
    await withRelyingParty(async (relyingParty) => {
      const setting = await personAndStrictApp(page, baseURL ?? "", relyingParty, language);
      const name = `second-factor-passkey-${language}`;

      await passwordToApp(setting);
      await page.getByRole("button", { name: text.passkeyOption }).click();
      await saveRecoveryCodes(page, text, name);
      await identityAndBack(page, labels, setting.username);
      expect(await authenticator.passkeys()).toHaveLength(1);

      // The device waits for the person: the sign-in page's offer of passkeys (autofill) does not
      // sign in by itself, and the password comes first. The passkey then answers the second step.
      await authenticator.responds(false);
      await passwordToApp(setting);
      await expect(page.getByRole("heading", { name: text.heading })).toBeFocused();
      await checkInBothSchemes(page, `${name}-prove`);
      await authenticator.responds(true);
      await page.getByRole("button", { name: text.usePasskey }).click();
      const claims = await identityAndBack(page, labels, setting.username);
      expect(claims.amr).toEqual(expect.arrayContaining(["pwd", "mfa"]));
    });
  });
}
