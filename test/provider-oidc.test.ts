import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountSchema } from "../src/common/api/account.ts";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { contextSchema } from "../src/common/api/context.ts";
import { accountView } from "../src/server/accounts/account-passkeys.ts";
import { consoleSignUp } from "./support/console.ts";
import type { FlowResponse } from "../src/common/api/flow.ts";
import { findCredential, credentialsOf } from "../src/server/store/accounts.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { browserFetch, CookieJar } from "./support/browser.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { freePort } from "./support/ports.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { codeIn, startSmtpReceiver, mailArgs } from "./support/smtp.ts";
import { registerUpstreamClient } from "./support/upstream.ts";

// Issue 16: a second Vrata, configured on its own, is the upstream OpenID Connect provider of the
// Vrata under test. People sign up and in through it with real redirects, codes and ID tokens.

const key = "upstream";

/** How the person signs in at the upstream: a username and passphrase, or an e-mail code. */
type UpstreamPerson =
  | { username: string; identity?: Record<string, string>; decline?: boolean }
  | { email: string; decline?: boolean };

let upstream: TestServer;
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let app: TestApp;
let configDir: string;
let callbackPrefix: string;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  const mail = mailArgs(smtp.port);
  upstream = await startTestServer({ args: mail });
  const port = await freePort();
  callbackPrefix = `https://localhost:${port}/auth/provider/${key}`;
  const { clientId, clientSecret } = await registerUpstreamClient(upstream.url, callbackPrefix);
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-upstream-config-"));
  fs.writeFileSync(path.join(configDir, "upstream.secret"), clientSecret);
  fs.writeFileSync(
    path.join(configDir, "vrata.json"),
    JSON.stringify({
      title: "Downstream",
      providers: [
        {
          key,
          type: "oidc",
          name: { en: "Upstream Vrata", sl: "Zgornja Vrata" },
          issuer: upstream.issuer,
          clientId,
          clientSecretFile: "upstream.secret",
        },
      ],
    }),
  );
  server = await startTestServer({
    args: [...mail, "--port", String(port), "--config", path.join(configDir, "vrata.json")],
  });
  app = await registerTestApp(server.db);
});

afterAll(async () => {
  await server.dispose();
  await upstream.dispose();
  await smtp.close();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

/** The upstream's page for a flow, when a redirect lands there. */
const upstreamFlowId = (url: URL) =>
  url.origin === new URL(upstream.url).origin ? /^\/auth\/([\w-]{43})$/.exec(url.pathname)?.[1] : undefined;

/**
 * Plays the person at the upstream from its authorization URL: signs in or up there, picks an
 * identity (or declines), and returns the address the upstream sends the browser back to.
 */
async function atUpstream(location: string, person: UpstreamPerson, jar = new CookieJar()): Promise<URL> {
  const send = browserFetch(jar);
  const step = async (flowId: string, name: string, body: unknown = {}) => {
    const response = await send(`${upstream.url}/api/auth/${name}/${flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as FlowResponse;
  };
  let url = location;
  for (let hop = 0; hop < 10; hop++) {
    const response = await send(url);
    const next = new URL(response.headers.get("location") ?? "", url);
    if (!response.headers.get("location")) throw new Error(`no redirect from ${url} (${response.status})`);
    if (next.href.startsWith(callbackPrefix)) return next;
    const flowId = upstreamFlowId(next);
    if (flowId) {
      if ("email" in person) {
        const sent = smtp.messages.filter(({ to }) => to.includes(person.email)).length;
        await step(flowId, "codeStart", { emailOrUsername: person.email });
        await step(flowId, "codeComplete", { code: codeIn(await smtp.waitFor(person.email, sent + 1)) });
      } else {
        await step(flowId, "passwordStart", { emailOrUsername: person.username });
        await step(flowId, "passwordComplete", { password: `${person.username} passphrase` });
      }
      if (person.decline) await step(flowId, "decline");
      else {
        const listed = await send(`${upstream.url}/api/i?flow=${flowId}`);
        let [identity] = (await listed.json()) as { id: string }[];
        if (!identity || ("identity" in person && person.identity)) {
          const created = await send(`${upstream.url}/api/i/create?flow=${flowId}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(("identity" in person && person.identity) || { username: "someone" }),
          });
          identity = (await created.json()) as { id: string };
        }
        await step(flowId, "chooseIdentity", { identity: { id: identity.id } });
      }
      await step(flowId, "redirect");
    }
    url = next.href;
  }
  throw new Error("too many redirects");
}

/** Starts a flow at the server under test and chooses the provider: the browser and the upstream URL. */
async function chooseProvider(): Promise<{ driver: FlowDriver; location: string }> {
  const driver = await FlowDriver.start(server.url, app);
  const { status, flow } = await driver.step("providerStart", { provider: key });
  expect(status).toBe(200);
  const location = flow.thirdPartyProvider?.location ?? "";
  expect(location.startsWith(`${upstream.issuer}/auth/oidc/authorize?`)).toBe(true);
  return { driver, location };
}

/** The browser brings the upstream's answer back; returns the response. */
const bringBack = (driver: FlowDriver, callback: URL) =>
  driver.fetch(callback.href, { headers: { accept: "text/html" } });

async function signInThroughUpstream(person: UpstreamPerson) {
  const { driver, location } = await chooseProvider();
  const callback = await atUpstream(location, person);
  const response = await bringBack(driver, callback);
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(`/auth/${driver.flowId}`);
  return { driver, flow: await driver.get(), callback };
}

describe("an upstream OpenID Connect provider", () => {
  it("is listed in the context with its names", async () => {
    const context = contextSchema.parse(await (await fetch(`${server.url}/context.json`)).json());
    expect(context.providers).toEqual([
      { key, type: "oidc", name: { en: "Upstream Vrata", sl: "Zgornja Vrata" } },
    ]);
  });

  it("sends the browser with a random state, a nonce and PKCE S256", async () => {
    const { driver, location } = await chooseProvider();
    const url = new URL(location);
    expect(url.searchParams.get("redirect_uri")).toBe(callbackPrefix);
    expect(url.searchParams.get("state")).not.toContain(driver.flowId);
    expect(url.searchParams.get("state")?.length).toBeGreaterThanOrEqual(43);
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("scope")).toBe("openid email profile");
  });

  it("signs up with the upstream's subject and claims, then signs the same account in again", async () => {
    const person = {
      username: "ursula",
      identity: { username: "ursula", givenName: "Ursula", fullName: "Ursula Upstream" },
    };
    const first = await signInThroughUpstream(person);
    expect(first.flow.completed).toEqual(["signup"]);
    expect(first.flow.providers).toEqual([key]);
    const [identity] = await first.driver.identities();
    expect(identity).toMatchObject({ username: "ursula", givenName: "Ursula", fullName: "Ursula Upstream" });

    const second = await signInThroughUpstream({ username: "ursula" });
    expect(second.flow.completed).toEqual(["signin"]);
    const identities = await second.driver.identities();
    expect(identities.map(({ id }) => id)).toContain(identity?.id);
  });

  it("uses only a verified upstream e-mail as the account's own, and never merges by e-mail", async () => {
    // An account here has vera@example.com already.
    const local = await FlowDriver.start(server.url, app);
    await local.step("codeStart", { emailOrUsername: "vera@example.com" });
    await local.step("codeComplete", { code: codeIn(await smtp.waitFor("vera@example.com")) });
    const { flow } = await signInThroughUpstream({ email: "vera@example.com" });
    // The upstream vouches for the same address: still a new account, which does not get the address.
    expect(flow.completed).toEqual(["signup"]);

    const unclaimed = await signInThroughUpstream({ email: "walt@example.com" });
    expect(unclaimed.flow.completed).toEqual(["signup"]);

    // An address the upstream does not vouch for (typed into an identity there) is only a field.
    const typed = await signInThroughUpstream({
      username: "xena",
      identity: { username: "xena", email: "xena@example.com" },
    });
    expect(typed.flow.completed).toEqual(["signup"]);
    expect((await typed.driver.identities())[0]?.email).toBe("xena@example.com");

    const emailsOf = async (email: string) => {
      const rows = await server.db
        .selectFrom("credentials")
        .select(["account_id", "provider"])
        .where("provider_id", "=", email)
        .execute();
      return rows;
    };
    expect(await emailsOf("vera@example.com")).toHaveLength(1);
    expect(await emailsOf("walt@example.com")).toHaveLength(1);
    expect(await emailsOf("xena@example.com")).toHaveLength(0);
    const walt = (await emailsOf("walt@example.com"))[0]?.account_id ?? "";
    expect((await credentialsOf(server.db, walt)).map(({ provider }) => provider).sort()).toEqual(
      ["email", key].sort(),
    );
  });

  it("fails the flow when the upstream answers access_denied", async () => {
    const { driver, location } = await chooseProvider();
    const callback = await atUpstream(location, { username: "yannick", decline: true });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const response = await bringBack(driver, callback);
    expect(response.status).toBe(303);
    const flow = await driver.get();
    expect(flow.completed).toEqual(["failed"]);
    expect(flow.providerError).toEqual({ provider: key, error: "denied" });
  });

  const refusedPage = async (response: Response, code: string) => {
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain(`"error":"${code}"`);
  };

  it("refuses a tampered state, a replayed answer and an answer in another browser", async () => {
    const { driver, location } = await chooseProvider();
    const callback = await atUpstream(location, { username: "zora" });
    const tampered = new URL(callback);
    tampered.searchParams.set("state", `${callback.searchParams.get("state") ?? ""}x`);
    await refusedPage(await bringBack(driver, tampered), "providerCallbackInvalid");

    // Another browser (without the cookie of the one that started) cannot use the answer.
    const elsewhere = await fetch(callback.href, { headers: { accept: "text/html" }, redirect: "manual" });
    await refusedPage(elsewhere, "providerCallbackInvalid");
    // That attempt used the answer up: the right browser cannot bring it back any more either.
    await refusedPage(await bringBack(driver, callback), "providerCallbackInvalid");
    expect((await driver.get()).completed).toEqual([]);

    const again = await chooseProvider();
    const answered = await atUpstream(again.location, { username: "zora" });
    expect((await bringBack(again.driver, answered)).status).toBe(303);
    await refusedPage(await bringBack(again.driver, answered), "providerCallbackInvalid");
  });

  it("refuses an answer for a flow that no longer waits for it", async () => {
    const { driver, location } = await chooseProvider();
    // The person chose the provider again: only the latest start is waited for.
    await driver.step("providerStart", { provider: key });
    const callback = await atUpstream(location, { username: "zora" });
    await refusedPage(await bringBack(driver, callback), "providerCallbackInvalid");
  });

  it("refuses an ID token for another nonce and an answer naming another issuer", async () => {
    const wrongNonce = await chooseProvider();
    const url = new URL(wrongNonce.location);
    url.searchParams.set("nonce", "not-the-nonce-of-this-request");
    const callback = await atUpstream(url.href, { username: "zora" });
    await refusedPage(await bringBack(wrongNonce.driver, callback), "providerAnswerInvalid");
    expect((await wrongNonce.driver.get()).completed).toEqual([]);

    const otherIssuer = await chooseProvider();
    const mixedUp = await atUpstream(otherIssuer.location, { username: "zora" });
    mixedUp.searchParams.set("iss", "https://evil.example");
    await refusedPage(await bringBack(otherIssuer.driver, mixedUp), "providerAnswerInvalid");
  });

  it("answers an unknown provider with 404 and a missing state with 400, never 500", async () => {
    const unknown = await fetch(`${server.url}/auth/provider/nobody?state=x`, {
      headers: { accept: "text/html" },
    });
    expect(unknown.status).toBe(404);
    const noState = await fetch(`${callbackPrefix}?code=abc`, { headers: { accept: "text/html" } });
    await refusedPage(noState, "providerCallbackInvalid");
    const driver = await FlowDriver.start(server.url, app);
    expect((await driver.raw("providerStart", { provider: "nobody" })).status).toBe(404);
    expect((await driver.raw("providerStart", { provider: "a/b" })).status).toBe(400);
  });

  it("keeps the upstream's subject as the credential", async () => {
    await signInThroughUpstream({ username: "ursula" });
    const rows = await server.db
      .selectFrom("credentials")
      .select("provider_id")
      .where("provider", "=", key)
      .execute();
    const subjects = rows.map((row) => row.provider_id ?? "");
    expect(subjects.length).toBeGreaterThan(0);
    expect(await findCredential(server.db, key, subjects[0] ?? "")).toBeDefined();
  });
});

describe("linking an upstream provider to an account", () => {
  /** A person signed in to the console here, with a browser that keeps cookies. */
  async function consolePerson(username: string) {
    const { tokens } = await consoleSignUp(server.url, username);
    const jar = new CookieJar();
    const send = browserFetch(jar);
    const call = (path: string, body?: unknown) =>
      send(server.url + path, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const link = async (person: UpstreamPerson) => {
      const started = await call(`/api/account/providerLinkStart/${key}`, {});
      expect(started.status).toBe(200);
      const { location } = (await started.json()) as { location: string };
      const callback = await atUpstream(location, person);
      const back = await send(callback.href, { headers: { accept: "text/html" } });
      expect(back.status).toBe(303);
      return back.headers.get("location");
    };
    return { call, link };
  }

  it("links by the provider's sign-in, refuses a subject linked elsewhere, and unlinks", async () => {
    const owner = await consolePerson("linda");
    expect(await owner.link({ username: "linda-up" })).toBe(`/account?provider=${key}&link=linked`);
    const account = accountSchema.parse(await (await owner.call("/api/account")).json());
    const linked = account.credentials.find(({ provider }) => provider === key);
    expect(linked).toMatchObject({ name: "linda-up", removable: true });

    // The same upstream person, linked by someone else: refused, and left where it is.
    const other = await consolePerson("otto");
    expect(await other.link({ username: "linda-up" })).toBe(`/account?provider=${key}&link=taken`);
    expect(await other.link({ username: "otto-up", decline: true })).toBe(
      `/account?provider=${key}&link=denied`,
    );

    // Signing in with the provider now reaches linda's account.
    const signIn = await signInThroughUpstream({ username: "linda-up" });
    expect(signIn.flow.completed).toEqual(["signin"]);

    const removed = await owner.call(`/api/account/remove/${linked?.id ?? ""}`, {});
    expect(removed.status).toBe(200);
    const after = accountSchema.parse(await removed.json());
    expect(after.credentials.some(({ provider }) => provider === key)).toBe(false);
    const activity = activityPageSchema.parse(await (await owner.call("/api/activity")).json()).items;
    const types = activity.filter(({ providers }) => providers?.includes(key)).map(({ type }) => type);
    expect(types).toEqual(expect.arrayContaining(["credentialAdd", "credentialRemove"]));
  });

  it("keeps a provider that is the last way to sign in", async () => {
    const { flow, driver } = await signInThroughUpstream({ username: "solo-up" });
    expect(flow.completed).toEqual(["signup"]);
    const accountId = (
      await server.db
        .selectFrom("flows")
        .select("state")
        .where("id", "=", driver.flowId)
        .executeTakeFirstOrThrow()
    ).state;
    const { accountId: id } = JSON.parse(accountId) as { accountId: string };
    const [credential] = await credentialsOf(server.db, id);
    expect(credential?.provider).toBe(key);
    const view = await accountView(server.db, id);
    expect(view.credentials[0]?.removable).toBe(false);
  });
});
