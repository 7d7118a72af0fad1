import { z } from "zod/mini";
import { contextSchema } from "../../src/common/api/context.ts";
import type { TestApp } from "./apps.ts";
import { FlowDriver } from "./flow-driver.ts";

/** What of /context.json names the console: the fields every release since the first has served. */
const consoleContextSchema = z.pick(contextSchema, {
  clientId: true,
  organizationId: true,
  redirectUri: true,
});

/** The console as an app of the built-in organization, read from /context.json (of any release). */
export async function consoleApp(base: string): Promise<TestApp> {
  const context = consoleContextSchema.parse(await (await fetch(`${base}/context.json`)).json());
  return {
    clientId: context.clientId,
    organizationId: context.organizationId,
    applicationId: "",
    redirectUri: context.redirectUri,
  };
}

/** The account page's own client of the built-in organization, read from /context.json. */
export async function accountPageApp(base: string): Promise<TestApp> {
  const context = contextSchema.parse(await (await fetch(`${base}/context.json`)).json());
  return {
    clientId: context.account.clientId,
    organizationId: context.organizationId,
    applicationId: context.account.applicationId,
    redirectUri: context.account.redirectUri,
  };
}

export type ConsoleApi = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Signs a person up to the console, or in again with the same username, with the identity of that ID
 * (by default the first one offered); returns their browser, tokens and an API caller with the token.
 */
export async function consoleSignUp(base: string, username: string, identityId?: string) {
  const driver = await FlowDriver.start(base, await consoleApp(base));
  await driver.step("passwordStart", { emailOrUsername: username });
  await driver.step("passwordComplete", { password: `${username}'s passphrase` });
  return finishConsoleSignIn(base, driver, identityId);
}

/**
 * Ends a console sign-in whose credentials are done: chooses the identity of that ID (by default the
 * first one offered) and takes the tokens; returns them with an API caller that sends the token.
 */
export async function finishConsoleSignIn(base: string, driver: FlowDriver, identityId?: string) {
  const identity = identityId === undefined ? (await driver.identities())[0] : { id: identityId };
  await driver.step("chooseIdentity", { identity: { id: identity?.id } });
  await driver.step("redirect");
  const tokens = await driver.exchange(await driver.returnToApp());
  const api: ConsoleApi = (path, init = {}) =>
    fetch(base + path, {
      ...init,
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
    });
  return { driver, tokens, api, identityId: identity?.id ?? "" };
}

export const postJson = (api: ConsoleApi, path: string, body: unknown) =>
  api(path, { method: "POST", body: JSON.stringify(body) });
