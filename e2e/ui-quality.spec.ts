import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Locator, Page } from "@playwright/test";
import { apiPath, apiPrefix, pathFor, type RouteName } from "../src/common/routes.ts";
import { dropFailedLoads, expect, seriousAccessibilityViolations, test as base } from "./fixtures.ts";
import { consoleCaller, newName, password, signUp } from "./support/console.ts";
import { addVirtualAuthenticator } from "./support/authenticator.ts";
import { newEmail } from "./support/flow.ts";
import { waitForMail } from "./support/mail.ts";
import {
  checkPage,
  layoutFindings,
  mainBackgroundLuminance,
  saveScreenshot,
  settle,
} from "./support/layout-checks.ts";

// Every page a person can reach, at a phone's 390 px and a desktop's 1280 px, in English and in
// Slovenian, light and dark as the system prefers: nothing wider than the screen, no text in a box
// narrower than its words, no serious or critical accessibility violation (low contrast among them;
// e2e/support/layout-checks.ts), no warning in the browser's console, and in dark mode a dark page.
//
// Each test opens its page once, at 390 px in the light scheme, and checks it there, again after
// widening the window, and then at both widths once the system prefers the dark scheme.
// It writes a full-page screenshot at each width for a reviewer to look at:
// `test-results/screenshots/<page>-<width>-<language>[-dark].png` (e.g. `organization-390-sl-dark.png`); the HTML
// report (`playwright-report/`, made when CI is set) shows each one with its test.
//
// Each worker signs a person up through the console's real flow once, then makes what the pages show
// through the API with the console's token: a second identity, an application template with a client
// of each kind, an organization that added it and that the second identity joined.

/** A phone's width first: each page is opened at it, then checked again at a desktop's. */
const widths = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const languages = [
  { language: "en", locale: "en-US", name: "English" },
  { language: "sl", locale: "sl-SI", name: "Slovenian" },
] as const;
/** The system's colour scheme: the light one, and the dark one, which pages follow. */
const schemes = [
  { scheme: "light", suffix: "" },
  { scheme: "dark", suffix: "-dark" },
] as const;
/** A dark page's background is at most this light (WCAG relative luminance; white is 1). */
const darkBackgroundLuminance = 0.05;

/** Where the organization's app is: what it filled in as the template's `uriBase`. */
const appBase = "https://portal.example.com";

/** What one worker made for the pages to show. */
interface Sample {
  /** The signed-in browser's cookies (Playwright's storage state file): a new page signs in silently. */
  readonly storageState: string;
  readonly username: string;
  readonly identity: { readonly id: string; readonly username: string };
  readonly template: { readonly id: string; readonly name: string };
  readonly organization: {
    readonly id: string;
    readonly name: string;
    readonly applicationId: string;
    readonly publicClientId: string;
    /** The second identity as the organization knows it. */
    readonly identityId: string;
  };
  readonly activityId: string;
  /** The path of an e-mailed invitation to the organization, not answered. */
  readonly invitationLink: string;
  /** The console's own client, which an authorization request with a foreign redirect URI names. */
  readonly consoleClientId: string;
}

/** Signs a new person up in a browser of its own and makes the sample through the console's API. */
async function makeSample(browser: Browser, baseURL: string, storageState: string): Promise<Sample> {
  const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: "en-US" });
  try {
    const page = await context.newPage();
    const username = newName("ui");
    await page.goto("/");
    await signUp(page, username);

    const call = await consoleCaller(page);
    const at = (route: RouteName, params: Record<string, string>) => apiPrefix + pathFor(route, params);

    const identity = { username: `${username}-work`, id: "" };
    identity.id = (
      await call<{ id: string }>(apiPath("IdentityCreate"), {
        username: identity.username,
        fullName: "Ada Lovelace King",
        description: "For the library's digital services.",
      })
    ).id;

    const template = { name: `Customer portal with single sign-on ${username}`, id: "" };
    template.id = (
      await call<{ id: string }>(apiPath("ApplicationTemplateCreate"), {
        name: template.name,
        description: "A portal where customers see their loans, reservations and fees.",
        homepageTemplate: "{uriBase}/",
        appScopes: [
          {
            name: "loans:read",
            description: { en: "See the loans you have", sl: "Ogled vaših izposoj" },
          },
        ],
        variables: [
          { name: "uriBase", description: "Where the portal is, such as https://portal.example.com" },
        ],
        clientsPublic: [
          { description: "The portal in the browser", redirectUriTemplates: ["{uriBase}/callback"] },
        ],
        clientsBackend: [
          {
            description: "The portal's server",
            redirectUriTemplates: ["{uriBase}/oidc/redirect"],
            postLogoutRedirectUriTemplates: ["{uriBase}/signed-out"],
            backchannelLogoutUriTemplate: "{uriBase}/oidc/backchannel-logout",
            requirePushedAuthorizationRequests: true,
          },
        ],
        clientsService: [{ description: "Nightly synchronisation of loans" }],
      })
    ).id;

    const organizationName = `Mestna knjižnica Ljubljana, oddelek za digitalne storitve ${username}`;
    const organizationId = (
      await call<{ id: string }>(apiPath("OrganizationCreate"), {
        name: organizationName,
        description: "Digital services of the city library.",
      })
    ).id;
    const created = await call<{ version: number; admins?: string[] }>(
      at("OrganizationGet", { id: organizationId }),
    );
    const updated = await call<{
      applications: { id: string; clientsPublic: { id: string }[] }[];
    }>(at("OrganizationUpdate", { id: organizationId }), {
      version: created.version,
      name: organizationName,
      description: "Digital services of the city library.",
      admins: created.admins ?? [],
      applications: [
        { templateId: template.id, active: true, values: [{ name: "uriBase", value: appBase }] },
      ],
      rotateSecrets: [],
    });
    const application = updated.applications[0];
    const publicClientId = application?.clientsPublic[0]?.id ?? "";
    expect(publicClientId).not.toBe("");

    const invitation = await call<{ id: string }>(at("OrganizationInvite", { id: organizationId }), {
      identityId: identity.id,
      role: "member",
    });
    await call(at("IdentityInvitationAccept", { id: identity.id, invitationId: invitation.id }), {});
    const joined = await call<{ organizations?: { id: string; organizationId: string }[] }>(
      at("IdentityGet", { id: identity.id }),
    );
    const scopedIdentityId =
      joined.organizations?.find((membership) => membership.organizationId === organizationId)?.id ?? "";

    const invitedAddress = newEmail("ui-invited");
    await call(at("OrganizationInviteByAddress", { id: organizationId }), {
      address: invitedAddress,
      role: "member",
    });
    const invitationLink =
      /\/invitation\/[\w-]{43}/.exec((await waitForMail(invitedAddress)).text)?.[0] ?? "";
    expect(invitationLink).not.toBe("");

    const activity = await call<{ items: { id: string }[] }>(apiPath("ActivityList"));
    const site = await call<{ clientId: string }>(pathFor("Context"));
    await context.storageState({ path: storageState });
    return {
      storageState,
      username,
      identity,
      template,
      organization: {
        id: organizationId,
        name: organizationName,
        applicationId: application?.id ?? "",
        publicClientId,
        identityId: scopedIdentityId,
      },
      activityId: activity.items[0]?.id ?? "",
      invitationLink,
      consoleClientId: site.clientId,
    };
  } finally {
    await context.close();
  }
}

const test = base.extend<object, { sample: Sample }>({
  sample: [
    async ({ browser }, use, workerInfo) => {
      // Playwright replaces a worker after a failed test; its successor, in the same slot, finds the
      // sample already made instead of signing up again.
      const folder = path.join(workerInfo.project.outputDir, "ui-quality");
      const file = path.join(folder, `sample-${workerInfo.parallelIndex}.json`);
      if (existsSync(file)) {
        await use(JSON.parse(await readFile(file, "utf8")) as Sample);
        return;
      }
      await mkdir(folder, { recursive: true });
      const storageState = path.join(folder, `signed-in-${workerInfo.parallelIndex}.json`);
      const sample = await makeSample(browser, workerInfo.project.use.baseURL ?? "", storageState);
      await writeFile(file, JSON.stringify(sample));
      await use(sample);
    },
    { scope: "worker", timeout: 180_000 },
  ],
});

/** An authorization request of the organization's app, as the app sends it; the flow's page opens. */
async function startAppFlow(page: Page, sample: Sample): Promise<string> {
  const request = new URLSearchParams({
    client_id: sample.organization.publicClientId,
    redirect_uri: `${appBase}/callback`,
    response_type: "code",
    scope: "openid",
    code_challenge: randomBytes(32).toString("base64url"),
    code_challenge_method: "S256",
    state: randomBytes(16).toString("base64url"),
    nonce: randomBytes(16).toString("base64url"),
  });
  // The start step asks for the passkeys autofill offers: the steps taken here come after that, as
  // the page's own steps would.
  const autofill = page.waitForResponse((response) => response.url().includes("/passkeyGetStart/"));
  await page.goto(`${pathFor("OIDCAuthorize")}?${request.toString()}`);
  await expect(page).toHaveURL(/\/auth\/[\w-]{43}$/);
  await autofill;
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

/**
 * Takes a flow's step the way its page does, with the page's own cookies and the same JSON call; a
 * reload then shows the step that follows. This reaches each step without depending on its labels.
 */
async function takeStep(page: Page, route: RouteName, flowId: string, body: object): Promise<void> {
  const url = apiPrefix + pathFor(route, { id: flowId });
  const status = await page.evaluate(
    async ({ url, body }) =>
      (
        await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify(body),
        })
      ).status,
    { url, body },
  );
  expect(status, route).toBe(200);
}

/**
 * The flow of the organization's app at a step; `steps` are taken, then `beforeReload` runs, before
 * the page is reloaded.
 */
async function flowAt(
  page: Page,
  sample: Sample,
  steps: (flowId: string) => [RouteName, object][],
  beforeReload?: () => Promise<void>,
): Promise<void> {
  const flowId = await startAppFlow(page, sample);
  const taken = steps(flowId);
  for (const [route, body] of taken) await takeStep(page, route, flowId, body);
  await beforeReload?.();
  if (taken.length > 0) await page.reload();
}

const signedInWithPassword = (sample: Sample): [RouteName, object][] => [
  ["AuthFlowPasswordStart", { emailOrUsername: sample.username }],
  ["AuthFlowPasswordComplete", { password }],
];

interface PageVisit {
  /** In the test's title and the screenshot's file name. */
  readonly name: string;
  /** Opens the page; returns what is on it once it shows what it is about, whatever its language. */
  readonly open: (page: Page, sample: Sample) => Promise<Locator>;
  /** An error status the page answers with, which Chromium logs as a failed load. */
  readonly errorStatus?: number;
}

const heading = (page: Page, name?: string) => page.getByRole("heading", { level: 1, name });
const formField = (page: Page) => page.locator("form input:not([type=hidden])").first();

/** Pages anybody reaches, signed out: the home page, the sign-in flow, errors, and the legal texts. */
const signedOutPages: PageVisit[] = [
  {
    name: "home-signed-out",
    open: async (page) => {
      await page.goto(pathFor("Home"));
      return heading(page);
    },
  },
  {
    name: "sign-in-start",
    open: async (page, sample) => {
      await flowAt(page, sample, () => []);
      return page.locator('input[autocomplete="username webauthn"]');
    },
  },
  {
    name: "sign-in-password",
    open: async (page, sample) => {
      await flowAt(page, sample, () => [["AuthFlowPasswordStart", { emailOrUsername: sample.username }]]);
      return page.locator('input[autocomplete="current-password"]');
    },
  },
  {
    name: "sign-in-code",
    open: async (page, sample) => {
      const email = newEmail("ui");
      await flowAt(page, sample, () => [["AuthFlowCodeStart", { emailOrUsername: email }]]);
      return page.locator('input[autocomplete="one-time-code"]');
    },
  },
  {
    name: "sign-in-passkey-failed",
    open: async (page, sample) => {
      // A device without a passkey for the site: the sign-in fails at once and the failure screen shows.
      await addVirtualAuthenticator(page);
      await flowAt(page, sample, () => []);
      await page.getByRole("button", { name: /passkey|ključem za dostop/ }).click();
      return page.getByRole("alert");
    },
  },
  {
    name: "sign-in-passkey-name",
    open: async (page, sample) => {
      // The failure screen's sign-up first asks what to call the new identity.
      await addVirtualAuthenticator(page);
      await flowAt(page, sample, () => []);
      await page.getByRole("button", { name: /passkey|ključem za dostop/ }).click();
      await page
        .getByRole("button", { name: /^(Sign up with a passkey|Registracija s ključem za dostop)$/ })
        .click();
      return page.locator('input[autocomplete="email"]');
    },
  },
  {
    name: "sign-in-identity",
    open: async (page, sample) => {
      await flowAt(page, sample, () => signedInWithPassword(sample));
      return page.getByText(sample.identity.username, { exact: true }).first();
    },
  },
  {
    name: "sign-in-redirect",
    open: async (page, sample) => {
      // The step counts down to sending the browser to the app, and Escape pauses it. The page's clock
      // stands still until then, so a slow machine cannot let the countdown end first.
      await flowAt(
        page,
        sample,
        () => [
          ...signedInWithPassword(sample),
          ["AuthFlowChooseIdentity", { identity: { id: sample.identity.id } }],
        ],
        async () => {
          await page.clock.install();
          await page.clock.pauseAt(Date.now() + 1_000);
        },
      );
      // The countdown says how many seconds are left, in any language; once paused, it does not.
      const countdown = page.getByRole("status").filter({ hasText: /\d/ });
      // Only as much time passes as the page needs to load: the countdown starts when it shows.
      await expect(async () => {
        await page.clock.runFor(10);
        await expect(countdown).toBeVisible({ timeout: 1 });
      }, "the countdown to the app shows").toPass({ intervals: [50] });
      await page.keyboard.press("Escape");
      await expect(countdown).toHaveCount(0);
      await page.clock.resume();
      return page.getByRole("status").first();
    },
  },
  {
    name: "unknown-flow",
    open: async (page) => {
      await page.goto(pathFor("AuthFlowGet", { id: randomBytes(32).toString("base64url").slice(0, 43) }));
      return heading(page);
    },
    errorStatus: 404,
  },
  {
    name: "unknown-path",
    open: async (page) => {
      await page.goto("/no/such/page");
      return page.locator("body");
    },
    errorStatus: 404,
  },
  {
    name: "unknown-client",
    open: async (page) => {
      const request = new URLSearchParams({
        client_id: "no-such-client",
        redirect_uri: `${appBase}/callback`,
        response_type: "code",
        scope: "openid",
      });
      await page.goto(`${pathFor("OIDCAuthorize")}?${request.toString()}`);
      return page.locator("body");
    },
    errorStatus: 400,
  },
  {
    name: "wrong-redirect-uri",
    open: async (page, sample) => {
      const request = new URLSearchParams({
        client_id: sample.consoleClientId,
        redirect_uri: "https://elsewhere.example/callback",
        response_type: "code",
        scope: "openid",
      });
      await page.goto(`${pathFor("OIDCAuthorize")}?${request.toString()}`);
      return page.locator("body");
    },
    errorStatus: 400,
  },
  {
    name: "authorization-without-parameters",
    open: async (page) => {
      await page.goto(pathFor("OIDCAuthorize"));
      return page.locator("body");
    },
    errorStatus: 400,
  },
  {
    name: "license",
    open: async (page) => {
      await page.goto(pathFor("License"));
      return page.getByText("Apache License").first();
    },
  },
  {
    name: "notice",
    open: async (page) => {
      await page.goto(pathFor("Notice"));
      return page.getByText("The Vrata authors").first();
    },
  },
];

/** The console's pages, signed in, each showing what the worker made. */
const signedInPages: PageVisit[] = [
  {
    name: "home",
    open: async (page) => {
      await page.goto(pathFor("Home"));
      return heading(page);
    },
  },
  {
    name: "connect-app",
    open: async (page, sample) => {
      await page.goto(pathFor("ConnectApp"));
      // The organization the person administers is offered first.
      await expect(page.locator("form select")).toHaveValue(sample.organization.id);
      return formField(page);
    },
  },
  {
    name: "invitation",
    open: async (page, sample) => {
      await page.goto(sample.invitationLink);
      return page.getByRole("radio").first();
    },
  },
  {
    name: "identities",
    open: async (page, sample) => {
      await page.goto(pathFor("IdentityList"));
      return page.getByText(sample.identity.username, { exact: true }).first();
    },
  },
  {
    name: "identity-create",
    open: async (page) => {
      await page.goto(pathFor("IdentityCreate"));
      return formField(page);
    },
  },
  {
    name: "identity",
    open: async (page, sample) => {
      await page.goto(pathFor("IdentityGet", { id: sample.identity.id }));
      return heading(page, sample.identity.username);
    },
  },
  {
    name: "organizations",
    open: async (page, sample) => {
      await page.goto(pathFor("OrganizationList"));
      return page.getByText(sample.organization.name, { exact: true }).first();
    },
  },
  {
    name: "organization-create",
    open: async (page) => {
      await page.goto(pathFor("OrganizationCreate"));
      return formField(page);
    },
  },
  {
    name: "organization",
    open: async (page, sample) => {
      await page.goto(pathFor("OrganizationGet", { id: sample.organization.id }));
      return heading(page, sample.organization.name);
    },
  },
  {
    name: "organization-app",
    open: async (page, sample) => {
      const { id, applicationId: appId } = sample.organization;
      await page.goto(pathFor("OrganizationApp", { id, appId }));
      return heading(page, sample.template.name);
    },
  },
  {
    name: "organization-identity",
    open: async (page, sample) => {
      const { id, identityId } = sample.organization;
      await page.goto(pathFor("OrganizationIdentity", { id, identityId }));
      return page.getByText(sample.identity.username, { exact: true }).first();
    },
  },
  {
    name: "organization-block-user",
    open: async (page, sample) => {
      const { id, identityId } = sample.organization;
      await page.goto(pathFor("OrganizationBlockUser", { id, identityId }));
      return page.getByRole("radio").first();
    },
  },
  {
    name: "organization-users",
    open: async (page, sample) => {
      await page.goto(pathFor("OrganizationUsers", { id: sample.organization.id }));
      return page.getByRole("link", { name: sample.identity.username, exact: true });
    },
  },
  {
    name: "organization-activity",
    open: async (page, sample) => {
      await page.goto(pathFor("OrganizationActivity", { id: sample.organization.id }));
      return page.getByRole("main").locator("ol > li time").first();
    },
  },
  {
    name: "templates",
    open: async (page, sample) => {
      await page.goto(pathFor("ApplicationTemplateList"));
      return page.getByText(sample.template.name, { exact: true }).first();
    },
  },
  {
    name: "template-create",
    open: async (page) => {
      await page.goto(pathFor("ApplicationTemplateCreate"));
      return formField(page);
    },
  },
  {
    name: "template",
    open: async (page, sample) => {
      await page.goto(pathFor("ApplicationTemplateGet", { id: sample.template.id }));
      return heading(page, sample.template.name);
    },
  },
  {
    name: "template-clients",
    open: async (page, sample) => {
      await page.goto(pathFor("ApplicationTemplateGet", { id: sample.template.id }));
      // Every client's card open, as its admin edits it.
      const closed = page.locator("form button[aria-expanded=false]");
      await expect(closed).toHaveCount(3);
      while ((await closed.count()) > 0) await closed.first().click();
      return page.getByRole("checkbox").first();
    },
  },
  {
    name: "account",
    open: async (page) => {
      await page.goto(pathFor("Account"));
      return page.getByRole("heading", { level: 2 }).first();
    },
  },
  {
    name: "activity",
    open: async (page) => {
      await page.goto(pathFor("ActivityList"));
      return page.locator(`a[href^="${pathFor("ActivityList")}/"]`).first();
    },
  },
  {
    name: "activity-entry",
    open: async (page, sample) => {
      await page.goto(pathFor("ActivityGet", { id: sample.activityId }));
      return heading(page);
    },
  },
];

for (const { language, locale, name } of languages)
  test.describe(`in ${name}`, () => {
    // Two widths in two schemes, three checks each: longer than most tests.
    // The browser's language for what the server answers itself, the person's choice for the app.
    test.use({ viewport: widths[0], locale, colorScheme: schemes[0].scheme });
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((chosen) => localStorage.setItem("vrata.locale", chosen), language);
    });

    // One load of the page serves both widths and both schemes: a narrower or wider window lays the
    // same page out anew, and the page's colours follow the scheme the system prefers as it changes.
    const check = (visit: PageVisit) =>
      test(visit.name, async ({ page, sample, pageErrors }) => {
        // Errors fail every test (fixtures.ts); a warning, from React or React Router say, fails these.
        const warnings: string[] = [];
        page.on("console", (message) => {
          if (message.type() === "warning") warnings.push(message.text());
        });
        const shown = await visit.open(page, sample);
        // Checking a page that never showed its content would prove nothing; the rest still runs.
        await expect.soft(shown, "the page shows what it is about").toBeVisible();
        await settle(page);
        const address = page.url();
        for (const { scheme, suffix } of schemes) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const viewport of widths) {
            await page.setViewportSize(viewport);
            await settle(page);
            await checkPage(page, `${visit.name}-${viewport.width}-${language}${suffix}`);
          }
          if (scheme === "dark")
            expect
              .soft(await mainBackgroundLuminance(page), "the page is dark")
              .toBeLessThan(darkBackgroundLuminance);
        }
        expect.soft(warnings, "warnings in the browser's console").toEqual([]);
        // Still the same page: the checks saw what the person sees there, not a page met on the way.
        expect(page.url()).toBe(address);
        if (visit.errorStatus !== undefined) dropFailedLoads(pageErrors, visit.errorStatus);
      });

    test.describe("signed out", () => {
      for (const visit of signedOutPages) check(visit);
    });
    test.describe("signed in", () => {
      test.use({ storageState: async ({ sample }, use) => use(sample.storageState) });
      for (const visit of signedInPages) check(visit);
    });
  });

// The checks themselves, on small pages made for them: each must find what it is there to find, and
// nothing on a page without it.
test.describe("the checks", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** A complete, accessible document around `main`, without the body's default margin. */
  const document = (main: string, bodyStyle = "") =>
    `<!doctype html><html lang="en"><title>Check</title><body style="margin: 0; ${bodyStyle}"><main>${main}</main></body></html>`;
  const nothingFound = { overflow: [], squeezedText: [] };

  /** A list item with a name and, beside it, a part that keeps `beside` pixels, as on an organization's page. */
  const row = (nameStyle: string, beside: number) =>
    document(`<ul style="margin: 0; padding: 0 16px"><li style="display: flex; gap: 8px">
      <span style="${nameStyle}">ada-lovelace-3f9a2c1b Ada Lovelace</span>
      <span style="flex: none; width: ${beside}px">active <button>Disable</button></span>
    </li></ul>`);

  test("a name squeezed to one character a line is found; the same name with room is not", async ({
    page,
  }) => {
    await page.setContent(row("min-width: 0; overflow-wrap: anywhere", 340));
    const { overflow, squeezedText } = await layoutFindings(page);
    expect(overflow).toEqual([]);
    expect(squeezedText).toHaveLength(1);
    expect(squeezedText[0]).toMatch(
      /^main > ul > li > span:nth-of-type\(1\) breaks "ada" over 3 lines in a \d+ px box: "ada-lovelace/,
    );

    await page.setContent(row("min-width: 0; flex: 1 1 auto; overflow-wrap: anywhere", 120));
    expect(await layoutFindings(page)).toEqual(nothingFound);
  });

  test("a URL longer than the screen may wrap in wide lines; text sticking out of its box is found", async ({
    page,
  }) => {
    const url = "https://portal.example.com/oidc/redirect/afterwards/and/then/somewhere/much/further";
    await page.setContent(document(`<p style="overflow-wrap: anywhere">${url}</p>`));
    expect(await layoutFindings(page)).toEqual(nothingFound);
    // Spaces kept at the end of a wrapped line hang past the box, unseen.
    const spaced = "Licensed under the Apache License,   Version 2.0 (the License);   you may not use";
    await page.setContent(document(`<pre style="white-space: pre-wrap">${spaced}</pre>`));
    expect(await layoutFindings(page)).toEqual(nothingFound);

    await page.setContent(document(`<div style="width: 80px">Supercalifragilistic</div>`));
    const { squeezedText } = await layoutFindings(page);
    expect(squeezedText).toHaveLength(1);
    expect(squeezedText[0]).toMatch(
      /^main > div: text sticks out of its 80 px box by \d+ px: "Supercalifragilistic"$/,
    );
  });

  test("overflow is found, except inside a container that scrolls sideways", async ({ page }) => {
    await page.setContent(document(`<div id="wide" style="width: 600px">Wide</div>`));
    expect((await layoutFindings(page)).overflow).toEqual([
      "the page is 600 px wide (viewport 390 px)",
      '#wide spans 0…600 px: "Wide" (viewport 390 px)',
    ]);

    // Cut off rather than scrollable: the document is no wider, the element still is.
    await page.setContent(
      document(
        `<div style="overflow: hidden"><p style="position: relative; left: 300px; width: 200px">Cut off</p></div>`,
      ),
    );
    expect((await layoutFindings(page)).overflow).toEqual([
      'main > div > p spans 300…500 px: "Cut off" (viewport 390 px)',
    ]);

    await page.setContent(
      document(`<div style="overflow-x: auto"><table style="width: 900px">
        <tr><td>A wide table the person scrolls</td></tr></table></div>`),
    );
    expect(await layoutFindings(page)).toEqual(nothingFound);
  });

  test("serious accessibility violations are named with their elements", async ({ page }) => {
    await page.setContent(document(`<button class="close"></button>`));
    expect(await seriousAccessibilityViolations(page)).toEqual([
      expect.stringMatching(/^button-name \(critical\): .+; at button <button class="close"><\/button>$/),
    ]);
    await page.setContent(document(`<button class="close">Close</button>`));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("the screenshot is a PNG file in the screenshots folder", async ({ page }) => {
    await page.setContent(document(`<p>Screenshot</p>`));
    const file = await saveScreenshot(page, "layout-checks-self-test");
    expect(file).toBe(path.join(test.info().project.outputDir, "screenshots", "layout-checks-self-test.png"));
    expect((await readFile(file)).subarray(1, 4).toString()).toBe("PNG");
  });
});
