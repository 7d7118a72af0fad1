import * as client from "openid-client";
import { expect } from "vitest";
import { flowResponseSchema, type FlowResponse } from "../../src/common/api/flow.ts";
import { identityListSchema } from "../../src/common/api/identity.ts";
import { browserFetch, CookieJar } from "./browser.ts";
import { fetchFrom } from "./from-address.ts";
import type { TestApp } from "./apps.ts";

/**
 * Plays a person's browser through an authorization request of a test app: openid-client builds the
 * request and exchanges the code; the person's part goes through the flow's JSON API.
 */
export class FlowDriver {
  readonly jar: CookieJar;
  readonly fetch: ReturnType<typeof browserFetch>;
  readonly codeVerifier = client.randomPKCECodeVerifier();
  readonly state = client.randomState();
  readonly nonce = client.randomNonce();
  flowId = "";

  readonly base: string;
  readonly config: client.Configuration;
  readonly app: TestApp;
  readonly localAddress: string | undefined;

  private constructor(
    base: string,
    config: client.Configuration,
    app: TestApp,
    jar: CookieJar,
    localAddress: string | undefined,
  ) {
    this.jar = jar;
    this.localAddress = localAddress;
    this.fetch = browserFetch(jar, localAddress ? fetchFrom(localAddress) : fetch);
    this.base = base;
    this.config = config;
    this.app = app;
  }

  static async start(...args: Parameters<typeof FlowDriver.request>): Promise<FlowDriver> {
    const driver = await FlowDriver.request(...args);
    expect(driver.answered, "the app was answered without a flow").toBeUndefined();
    return driver;
  }

  /**
   * The authorization request of a browser whose single sign-on session answers it at once: back at
   * the app with a code (or an error), without any page. Returns the driver and where the browser lands.
   */
  static async startSignedIn(...args: Parameters<typeof FlowDriver.request>) {
    const driver = await FlowDriver.request(...args);
    expect(driver.flowId, "a flow page was shown").toBe("");
    if (!driver.answered) throw new Error("the app was not answered");
    return { driver, callback: driver.answered };
  }

  /** Where the authorization request sent the browser straight back to the app, if it did. */
  answered: URL | undefined;

  private static async request(
    base: string,
    app: TestApp,
    parameters: Record<string, string> = {},
    clientAuthentication: client.ClientAuth = client.None(),
    /** The browser's cookies, when it is the same browser as an earlier flow's. */
    jar = new CookieJar(),
    /** The loopback address (127.0.0.x) the browser's requests come from; the default one if absent. */
    localAddress?: string,
  ): Promise<FlowDriver> {
    const config = await client.discovery(new URL(base), app.clientId, undefined, clientAuthentication);
    const driver = new FlowDriver(base, config, app, jar, localAddress);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope: "openid profile email",
      code_challenge: await client.calculatePKCECodeChallenge(driver.codeVerifier),
      code_challenge_method: "S256",
      state: driver.state,
      nonce: driver.nonce,
      ...parameters,
    });
    await driver.open(url);
    return driver;
  }

  /**
   * The same, with the request pushed first (RFC 9126): the browser carries only its `request_uri`.
   * With `dpop`, the request and later the code are bound to that DPoP key.
   */
  static async startPushed(base: string, app: TestApp, dpop?: client.DPoPHandle): Promise<FlowDriver> {
    const config = await client.discovery(new URL(base), app.clientId, undefined, client.None());
    const driver = new FlowDriver(base, config, app, new CookieJar(), undefined);
    const parameters = {
      redirect_uri: app.redirectUri,
      scope: "openid profile",
      code_challenge: await client.calculatePKCECodeChallenge(driver.codeVerifier),
      code_challenge_method: "S256",
      state: driver.state,
      nonce: driver.nonce,
    };
    const url = await client.buildAuthorizationUrlWithPAR(config, parameters, dpop ? { DPoP: dpop } : {});
    await driver.open(url);
    return driver;
  }

  /** The browser opens the authorization request and lands on its flow's page, or back at the app. */
  private async open(url: URL): Promise<void> {
    const response = await this.fetch(url.href);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location") ?? "", this.base);
    if (location.origin + location.pathname === this.app.redirectUri) {
      this.answered = location;
      return;
    }
    this.flowId = /\/auth\/([^/?#]+)$/.exec(location.pathname)?.[1] ?? "";
    expect(this.flowId).not.toBe("");
    // The browser loads the page: a person signed in already continues there (single sign-on).
    expect((await this.fetch(location.href)).status).toBe(200);
  }

  /** The same browser and flow, sending its requests to another instance of the same deployment. */
  atInstance(base: string): FlowDriver {
    const moved = new FlowDriver(base, this.config, this.app, this.jar, this.localAddress);
    moved.flowId = this.flowId;
    return moved;
  }

  async get(): Promise<FlowResponse> {
    const response = await this.fetch(`${this.base}/api/auth/${this.flowId}`);
    expect(response.status).toBe(200);
    return flowResponseSchema.parse(await response.json());
  }

  /** Posts a step; returns the status and the parsed flow (soft errors come back as 400 with it). */
  async step(name: string, body: unknown = {}): Promise<{ status: number; flow: FlowResponse }> {
    const response = await this.raw(name, body);
    const json: unknown = await response.json();
    return { status: response.status, flow: flowResponseSchema.parse(json) };
  }

  raw(name: string, body: unknown, contentType = "application/json"): Promise<Response> {
    return this.fetch(`${this.base}/api/auth/${name}/${this.flowId}`, {
      method: "POST",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  async identities() {
    const response = await this.fetch(`${this.base}/api/i?flow=${this.flowId}`);
    expect(response.status).toBe(200);
    return identityListSchema.parse(await response.json());
  }

  async createIdentity(fields: Record<string, string>): Promise<string> {
    const response = await this.fetch(`${this.base}/api/i/create?flow=${this.flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fields),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /** Follows the redirects from the flow page back to the app and returns where the browser lands. */
  async returnToApp(): Promise<URL> {
    let url = `${this.base}/auth/${this.flowId}`;
    for (let hop = 0; hop < 5; hop++) {
      const response = await this.fetch(url);
      const location = response.headers.get("location");
      if (!location) throw new Error(`no redirect from ${url} (${response.status})`);
      const next = new URL(location, url);
      const atApp = next.origin + next.pathname === this.app.redirectUri;
      if (atApp && (next.searchParams.has("code") || next.searchParams.has("error"))) return next;
      url = next.href;
    }
    throw new Error("too many redirects");
  }

  async exchange(callback: URL, dpop?: client.DPoPHandle) {
    return client.authorizationCodeGrant(
      this.config,
      callback,
      { pkceCodeVerifier: this.codeVerifier, expectedState: this.state, expectedNonce: this.nonce },
      undefined,
      dpop ? { DPoP: dpop } : {},
    );
  }
}
