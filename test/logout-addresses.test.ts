import tls from "node:tls";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { createCa, createServerCertificate } from "../src/server/http/tls-generate.ts";
import { systemResolver, type ResolveHost, type ResolvedAddress } from "../src/server/oidc/app-fetch.ts";
import { CookieJar } from "./support/browser.ts";
import { consoleSignUp, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { LogoutReceiver } from "./support/logout-receiver.ts";
import { organizationWithAppToldOfLogouts, signInThrough } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Back-channel logout reaches apps only at addresses Vrata has checked: with
// --backchannel-logout-private off, none on loopback or another internal network, whatever name leads
// there; with it on, still only the address the name resolved to when it was checked.

/**
 * The network's answers as the test sets them: each name's answers in turn, the last for every later
 * query; names the test sets nothing for are resolved by the system.
 */
class Answers {
  readonly #answers = new Map<string, string[][]>();
  readonly queries: string[] = [];

  set(name: string, ...answers: string[][]): void {
    this.#answers.set(name, answers);
  }

  readonly resolve: ResolveHost = (hostname) => {
    this.queries.push(hostname);
    const answers = this.#answers.get(hostname);
    if (!answers) return systemResolver(hostname);
    const answer = answers.length > 1 ? (answers.shift() ?? []) : (answers[0] ?? []);
    return Promise.resolve(answer.map((address): ResolvedAddress => ({ address, family: 4 })));
  };
}

describe.each(storeEngines)("back-channel logout addresses on $name", ({ url }) => {
  const answers = new Answers();
  /** A server that may call apps on internal addresses, where the apps are saved. */
  let allowing: TestServer;
  /** A second instance of the same deployment that may not. */
  let refusing: TestServer;
  let owner: Awaited<ReturnType<typeof consoleSignUp>>;

  beforeAll(async () => {
    // One attempt at each delivery, so that each is resolved and checked once.
    const args = ["--backchannel-logout-retries", ""];
    const store = url ? { postgresUrl: url } : {};
    allowing = await startTestServer({
      ...store,
      args: [...args, "--backchannel-logout-private"],
      resolveHost: answers.resolve,
    });
    // Signed in to the console before the other instance starts, which makes the console its own.
    owner = await consoleSignUp(allowing.url, "oskar");
    refusing = await startTestServer({
      ...store,
      shareStoreOf: allowing,
      args,
      resolveHost: answers.resolve,
    });
  });
  afterAll(async () => {
    await refusing.dispose();
    await allowing.dispose();
  });

  /** Signs a person in to the app through `server`, then out of Vrata: the app's session ends. */
  async function signInAndOut(
    server: TestServer,
    told: Awaited<ReturnType<typeof organizationWithAppToldOfLogouts>>,
    username: string,
  ) {
    const jar = new CookieJar();
    const driver = await FlowDriver.start(server.issuer, told.app, { scope: "openid" }, told.auth, jar);
    const { tokens } = await signInThrough(driver, username);
    const signOut = await driver.fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(signOut.status).toBe(200);
    const sid = tokens.claims()?.["sid"];
    if (typeof sid !== "string") throw new Error("the ID token has no sid");
    return sid;
  }

  /** The organization's activity, once it says that a logout could not be delivered. */
  async function failureRecorded(api: ConsoleApi, organizationId: string): Promise<void> {
    await expect
      .poll(async () => {
        const page = activityPageSchema.parse(await (await api(`/api/o/activity/${organizationId}`)).json());
        return page.items.map((entry) => entry.type);
      })
      .toContain("backchannelLogoutFailed");
  }

  it("refuses a name that resolves to loopback without connecting, unless internal addresses are allowed", async () => {
    const receiver = await LogoutReceiver.start();
    try {
      // Saved while internal addresses were allowed; `localhost` resolves to 127.0.0.1 on any system.
      const told = await organizationWithAppToldOfLogouts(
        owner,
        "Loopback app",
        `http://localhost:${receiver.port}/backchannel-logout`,
      );

      await signInAndOut(refusing, told, "lovro");
      await failureRecorded(owner.api, told.app.organizationId);
      expect(receiver.connections).toBe(0);
      expect(receiver.tokens).toEqual([]);

      // The same app, where internal addresses are allowed, is told.
      const sid = await signInAndOut(allowing, told, "lovro");
      await expect.poll(() => receiver.tokens.map((token) => decodeJwt(token).sid)).toEqual([sid]);
    } finally {
      await receiver.close();
    }
  });

  it("connects only to the address it checked, however the name's answer changes after the check", async () => {
    // The app's name is checked and then resolved again to another address (DNS rebinding): its
    // first answer is the app, every later one a service elsewhere on the same port.
    const name = "rebinding.addresses.example";
    const ca = await createCa();
    tls.setDefaultCACertificates([...tls.getCACertificates("default"), ca.certPem]);
    const certificate = await createServerCertificate(ca, [name]);
    const app = await LogoutReceiver.start({ certificate });
    const elsewhere = await LogoutReceiver.start({ host: "127.0.0.2", port: app.port, certificate });
    try {
      const told = await organizationWithAppToldOfLogouts(
        owner,
        "Rebinding app",
        `https://${name}:${app.port}/backchannel-logout`,
      );
      answers.set(name, ["127.0.0.1"], ["127.0.0.2"]);

      const sid = await signInAndOut(allowing, told, "rebeka");
      // Delivered over TLS, with the certificate checked for the app's name.
      await expect.poll(() => app.tokens.map((token) => decodeJwt(token).sid)).toEqual([sid]);
      expect(answers.queries.filter((query) => query === name)).toHaveLength(1);
      expect(elsewhere.connections).toBe(0);
    } finally {
      await Promise.all([app.close(), elsewhere.close()]);
    }
  });
});
