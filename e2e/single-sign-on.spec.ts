import type { Frame, Locator, Page, Response } from "@playwright/test";
import { apiPath } from "../src/common/routes.ts";
import { expect, test } from "./fixtures.ts";
import { accountMenu, addRelyingPartyApp, consoleCaller, newName, signUp } from "./support/console.ts";
import { identityItem } from "./support/flow.ts";
import { flowLabels, type FlowLabels } from "./support/labels.ts";
import { checkPage } from "./support/layout-checks.ts";
import { startRelyingParty, type RelyingParty } from "./support/relyingParty.ts";

// Single sign-on belongs to the person: one browser signs up at the console, then reaches the apps of
// two other organizations without typing a password again. Each app knows the person by the identity
// chosen for it, under its own `sub`, and never sees the other's.

const redirectStep = apiPath("AuthFlowRedirect").replace(/:id$/, "");

/**
 * The text of every page and API answer from Vrata while `during` runs. Redirects have none, and
 * neither has the redirect step's answer to the browser: the page leaves at once for the address it
 * names, which the relying party then shows. Any other answer that could not be read fails the test:
 * it might have been the one to carry an ID.
 */
async function vrataTextsDuring(page: Page, origin: string, during: () => Promise<void>): Promise<string> {
  const texts: Promise<string>[] = [];
  const unread: string[] = [];
  const record = (response: Response) => {
    const kind = response.request().resourceType();
    if (new URL(response.url()).origin !== origin || !["document", "fetch", "xhr"].includes(kind)) return;
    if (response.status() >= 300 && response.status() < 400) return;
    if (new URL(response.url()).pathname.startsWith(redirectStep)) return;
    texts.push(
      response.text().catch((error: unknown) => {
        unread.push(`${response.url()}: ${String(error)}`);
        return "";
      }),
    );
  };
  page.on("response", record);
  try {
    await during();
  } finally {
    page.off("response", record);
  }
  const joined = (await Promise.all(texts)).join("\n");
  expect(unread).toEqual([]);
  return joined;
}

/** Neither the page nor its address (an app's callback, say) holds the text. */
async function expectNowhereOnPage(page: Page, text: string): Promise<void> {
  expect(page.url()).not.toContain(text);
  expect(await page.content()).not.toContain(text);
}

/** The ID token's `sub` the relying party shows once it has finished the sign-in. */
async function subShown(page: Page): Promise<string> {
  const claims = page.locator("#claims");
  await expect(claims).toBeVisible();
  const { sub } = JSON.parse((await claims.textContent()) ?? "{}") as { sub?: string };
  expect(sub).toMatch(/\S/);
  return sub ?? "";
}

/**
 * From the app's sign-in, the card opens at the identity step of a person signed in already: no
 * credential field, and a way to use another account.
 */
async function expectSignedInIdentityStep(page: Page, labels: FlowLabels): Promise<void> {
  await expect(page.getByRole("heading", { level: 2, name: labels.chooseIdentity })).toBeVisible();
  await expect(page.getByText(labels.signedInAlready, { exact: true })).toBeVisible();
  // The app asks only for an identity: not to sign in or up, nor a start step in the stepper.
  await expect(page.getByText(labels.asksIdentity)).toBeVisible();
  await expect(page.getByRole("navigation", { name: labels.steps }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("button", { name: labels.otherAccount })).toBeVisible();
  await expect(page.getByLabel(labels.identifier, { exact: true })).toHaveCount(0);
  await expect(page.getByLabel(labels.password, { exact: true })).toHaveCount(0);
}

/**
 * On the identity step: the identity's button, then the redirect step's countdown sends the person back
 * to the app (a click on "Redirect now" could come after it on a slow machine); returns the app's `sub`.
 */
async function chooseAndReturn(page: Page, button: Locator, labels: FlowLabels): Promise<string> {
  await button.click();
  await expect(page.getByRole("button", { name: labels.pause })).toBeVisible();
  return subShown(page);
}

test("one sign-in reaches the console and two organizations' apps, each knowing the person by its own sub", async ({
  page,
  baseURL,
}) => {
  // Three sign-ins to apps, then the identity step in two languages at two widths, each scanned for
  // accessibility.
  test.slow();
  const origin = baseURL ?? "";
  const passwordsSent: string[] = [];
  const passwordStep = apiPath("AuthFlowPasswordComplete").replace(/:id$/, "");
  page.context().on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith(passwordStep)) passwordsSent.push(request.url());
  });
  const relyingParties: RelyingParty[] = [];
  try {
    const [notes, tasks] = [await startRelyingParty(), await startRelyingParty()] as const;
    relyingParties.push(notes, tasks);

    // The console is the built-in organization's app: the password is typed there, once. The person
    // has a second identity, so that the apps' identity step offers a choice.
    const username = newName("rosa");
    await page.goto("/");
    await signUp(page, username);
    const call = await consoleCaller(page);
    const workIdentity = newName("work");
    await call(apiPath("IdentityCreate"), { username: workIdentity });
    const notesName = newName("Notes");
    const notesOrganization = await addRelyingPartyApp(call, origin, notes, notesName);
    const tasksName = newName("Tasks");
    await addRelyingPartyApp(call, origin, tasks, tasksName);

    // Notes, in English: the identity step at once, naming the app and its organization.
    const { en, sl } = flowLabels;
    await page.goto(`${notes.base}/login`);
    await expectSignedInIdentityStep(page, en);
    await expect(page.getByText(`${notesName} from ${notesOrganization}`)).toBeVisible();
    const notesSub = await chooseAndReturn(
      page,
      identityItem(page, username).getByRole("button", { name: en.select }),
      en,
    );

    // Tasks, in Slovenian: no answer of Vrata's on the way carries the ID Notes knows.
    let tasksSub = "";
    const seenOnTheWayToTasks = await vrataTextsDuring(page, origin, async () => {
      await page.goto(`${tasks.base}/login?ui_locales=sl`);
      await expectSignedInIdentityStep(page, sl);
      tasksSub = await chooseAndReturn(
        page,
        identityItem(page, username).getByRole("button", { name: sl.select }),
        sl,
      );
    });
    expect(tasksSub).not.toBe(notesSub);
    // What was read includes the identities offered (the other identity's name is only there).
    expect(seenOnTheWayToTasks).toContain(workIdentity);
    expect(seenOnTheWayToTasks).not.toContain(notesSub);
    await expectNowhereOnPage(page, notesSub);

    // The console is still signed in, also after a reload.
    await page.goto("/");
    await expect(accountMenu(page)).toBeVisible();
    await page.reload();
    await expect(accountMenu(page)).toBeVisible();

    // Back to Notes: answered at once, without any page of Vrata's, knowing the person as before.
    const pagesShown: string[] = [];
    const recordPage = (frame: Frame) => {
      if (frame === page.mainFrame()) pagesShown.push(new URL(frame.url()).origin);
    };
    page.on("framenavigated", recordPage);
    await page.goto(`${notes.base}/login`);
    expect(await subShown(page)).toBe(notesSub);
    page.off("framenavigated", recordPage);
    expect(pagesShown).toEqual([notes.base]);
    await expectNowhereOnPage(page, tasksSub);

    // Asked to choose again, the identity chosen for Notes comes first, to continue with, before the
    // other one, in both languages; the step is looked at on a phone and a desktop.
    const seenChoosingAgain = await vrataTextsDuring(page, origin, async () => {
      for (const [language, labels] of [
        ["en", en],
        ["sl", sl],
      ] as const) {
        await page.goto(`${notes.base}/login?prompt=select_account&ui_locales=${language}`);
        await expectSignedInIdentityStep(page, labels);
        const offered = page
          .getByRole("region", { name: labels.chooseIdentity })
          .getByRole("listitem")
          .filter({ has: page.getByRole("button") });
        await expect(offered).toHaveCount(2);
        const [chosen, other] = [offered.first(), offered.last()];
        await expect(chosen).toContainText(username);
        await expect(chosen).toContainText(labels.lastUsedHere);
        await expect(chosen.getByRole("button", { name: labels.continue })).toBeVisible();
        await expect(other).toContainText(workIdentity);
        await expect(other).not.toContainText(labels.lastUsedHere);
        await expect(other.getByRole("button", { name: labels.select })).toBeVisible();
        for (const viewport of [
          { width: 390, height: 844 },
          { width: 1280, height: 800 },
        ]) {
          await page.setViewportSize(viewport);
          await checkPage(page, `single-sign-on-identity-${viewport.width}-${language}`);
        }
      }
      expect(await chooseAndReturn(page, page.getByRole("button", { name: sl.continue }), sl)).toBe(notesSub);
    });
    expect(seenChoosingAgain).toContain(workIdentity);
    expect(seenChoosingAgain).not.toContain(tasksSub);
    await expectNowhereOnPage(page, tasksSub);

    expect(passwordsSent).toHaveLength(1);
  } finally {
    await Promise.all(relyingParties.map((relyingParty) => relyingParty.close()));
  }
});
