import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { templateSchema, type Template } from "../src/common/api/template.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { CookieJar } from "./support/browser.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { LogoutReceiver } from "./support/logout-receiver.ts";
import { confirmationPage, confirmLogout } from "./support/logout-pages.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) and back-channel logout (Back-Channel
// Logout 1.0), with openid-client as the relying party and a back-channel receiver on loopback.

type Owner = Awaited<ReturnType<typeof consoleSignUp>>;
type Tokens = client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

const uriBase = "https://logout.example";

describe.each(storeEngines)("logout on $name", ({ url }) => {
  let server: TestServer;
  let owner: Owner;
  let receiver: LogoutReceiver;
  let template: Template;
  let organization: Organization;

  /** The organization's client made from the template client with this description. */
  function appOf(description: "web" | "backend"): TestApp & { secret: string } {
    const application = organization.applications?.[0];
    const all = [...template.clientsPublic, ...template.clientsBackend];
    const templateClientId = all.find((candidate) => candidate.description === description)?.id;
    const clients = [...(application?.clientsPublic ?? []), ...(application?.clientsBackend ?? [])];
    const clientId = clients.find((candidate) => candidate.templateClientId === templateClientId)?.id ?? "";
    return {
      organizationId: organization.id,
      applicationId: application?.id ?? "",
      clientId,
      redirectUri: `${uriBase}/${description}/callback`,
      secret: organization.secrets?.find((candidate) => candidate.clientId === clientId)?.secret ?? "",
    };
  }

  const authenticationOf = (app: { secret: string }) =>
    app.secret ? client.ClientSecretBasic(app.secret) : client.None();

  beforeAll(async () => {
    // An app that is down is tried again after 50 ms, then 50 ms more, before it is recorded.
    server = await startTestServer({
      ...(url ? { postgresUrl: url } : {}),
      args: ["--backchannel-logout-retries", "0.05,0.05", "--backchannel-logout-private"],
    });
    receiver = await LogoutReceiver.start();
    owner = await consoleSignUp(server.url, "lara");
    const created = await postJson(owner.api, "/api/a/create", {
      name: "Logbook",
      idScopes: ["openid", "profile", "email"],
      variables: [{ name: "uriBase" }, { name: "backchannel" }],
      clientsPublic: [
        {
          description: "web",
          redirectUriTemplates: ["{uriBase}/web/callback"],
          postLogoutRedirectUriTemplates: ["{uriBase}/web/signed-out"],
        },
      ],
      clientsBackend: [
        {
          description: "backend",
          redirectUriTemplates: ["{uriBase}/backend/callback"],
          postLogoutRedirectUriTemplates: ["{uriBase}/backend/signed-out"],
          backchannelLogoutUriTemplate: "{backchannel}",
        },
      ],
    });
    expect(created.status).toBe(201);
    const { id: templateId } = (await created.json()) as { id: string };
    template = templateSchema.parse(await (await owner.api(`/api/a/${templateId}`)).json());
    const { id } = (await (await postJson(owner.api, "/api/o/create", { name: "Loggers" })).json()) as {
      id: string;
    };
    const added = await postJson(owner.api, `/api/o/update/${id}`, {
      version: 1,
      name: "Loggers",
      admins: [],
      applications: [
        {
          templateId,
          active: true,
          values: [
            { name: "uriBase", value: uriBase },
            { name: "backchannel", value: receiver.url },
          ],
        },
      ],
    });
    organization = organizationSchema.parse(await added.json());
  });
  afterAll(async () => {
    await server.dispose();
    await receiver.close();
  });

  /** The person signs in to the app in the browser of `jar` (signing up the first time). */
  async function signIn(username: string, description: "web" | "backend", jar: CookieJar) {
    const app = appOf(description);
    const driver = await FlowDriver.start(server.issuer, app, {}, authenticationOf(app), jar);
    await driver.step("passwordStart", { emailOrUsername: username });
    await driver.step("passwordComplete", { password: `${username}'s passphrase` });
    const [identity] = await driver.identities();
    await driver.step("chooseIdentity", { identity: { id: identity?.id } });
    await driver.step("redirect");
    return { driver, tokens: await driver.exchange(await driver.returnToApp()) };
  }

  /**
   * The person signed in to both clients of the app in one browser, as one single sign-on session: the
   * second signs in at once, with the identity chosen for the app.
   */
  async function signedInToBoth(username: string) {
    const jar = new CookieJar();
    const web = await signIn(username, "web", jar);
    const app = appOf("backend");
    const { driver, callback } = await FlowDriver.startSignedIn(
      server.issuer,
      app,
      {},
      authenticationOf(app),
      jar,
    );
    const backend = { driver, tokens: await driver.exchange(callback) };
    expect(backend.tokens.claims()?.sub).toBe(web.tokens.claims()?.sub);
    return { jar, web, backend };
  }

  /** What openid-client's silent sign-in to the web app gets in this browser: a code or an error. */
  async function silentSignIn(driver: FlowDriver): Promise<URL> {
    const url = client.buildAuthorizationUrl(driver.config, {
      redirect_uri: appOf("web").redirectUri,
      scope: "openid",
      prompt: "none",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const response = await driver.fetch(url.href);
    return new URL(response.headers.get("location") ?? "", server.issuer);
  }

  /** The logout token of the backend's part of a session, once it has arrived. */
  async function logoutTokenOf(backend: Tokens): Promise<string> {
    const sid = backend.claims()?.["sid"];
    expect(sid).toBeTruthy();
    const ofSession = () => receiver.tokens.find((token) => decodeJwt(token).sid === sid);
    await expect.poll(ofSession).toBeTruthy();
    return ofSession() ?? "";
  }

  async function verifiedLogoutToken(backend: Tokens) {
    const token = await logoutTokenOf(backend);
    const jwks = createRemoteJWKSet(new URL(`${server.issuer}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, jwks, {
      issuer: server.issuer,
      audience: appOf("backend").clientId,
      typ: "logout+jwt",
    });
    expect(decodeProtectedHeader(token).kid).toBeTruthy();
    const idToken = backend.claims();
    expect(payload.events).toEqual({ "http://schemas.openid.net/event/backchannel-logout": {} });
    expect(payload.sub).toBe(idToken?.sub);
    expect(payload.sid).toBe(idToken?.["sid"]);
    expect(payload.sid).toBeTruthy();
    expect(payload).not.toHaveProperty("nonce");
    expect(payload.jti).toBeTruthy();
    return payload;
  }

  it("is advertised in discovery with back-channel logout", async () => {
    const metadata = (await client.discovery(new URL(server.issuer), appOf("web").clientId)).serverMetadata();
    expect(metadata.end_session_endpoint).toBe(`${server.issuer}/auth/oidc/logout`);
    expect(metadata["backchannel_logout_supported"]).toBe(true);
    expect(metadata["backchannel_logout_session_supported"]).toBe(true);
  });

  it("signs out with id_token_hint: asks, returns state to the registered URI, ends single sign-on and tells the backend", async () => {
    const { web, backend } = await signedInToBoth("nika");
    expect((await silentSignIn(web.driver)).searchParams.get("code")).toBeTruthy();

    const logoutUrl = client.buildEndSessionUrl(web.driver.config, {
      id_token_hint: web.tokens.id_token ?? "",
      post_logout_redirect_uri: `${uriBase}/web/signed-out`,
      state: "bye-state",
      ui_locales: "sl",
    });
    const { page, policy } = await confirmationPage(web.driver, logoutUrl);
    // Its ID token names this session, and only its own clients are signed in: nobody else to ask about.
    expect(page).toMatchObject({ app: { name: "Logbook" }, locale: "sl", atOnce: true });
    // The confirmation's redirect to the app is allowed by the page's own policy, and nothing else.
    expect(policy).toContain(`form-action 'self' ${uriBase}`);

    const back = await confirmLogout(web.driver, page.xsrf);
    expect(back.origin + back.pathname).toBe(`${uriBase}/web/signed-out`);
    expect(back.searchParams.get("state")).toBe("bye-state");

    await verifiedLogoutToken(backend.tokens);
    const silent = await silentSignIn(web.driver);
    expect(silent.searchParams.get("error")).toBe("login_required");
    // The app's refresh and access tokens ended with the session.
    const introspected = await client.tokenIntrospection(web.driver.config, web.tokens.access_token);
    expect(introspected.active).toBe(false);
  });

  it("signs out without id_token_hint, by client_id, and without any app at all", async () => {
    const { web, backend } = await signedInToBoth("tine");
    const logoutUrl = client.buildEndSessionUrl(web.driver.config, {
      post_logout_redirect_uri: `${uriBase}/web/signed-out`,
      state: "no-hint",
    });
    expect(logoutUrl.searchParams.get("client_id")).toBe(appOf("web").clientId);
    const { page } = await confirmationPage(web.driver, logoutUrl);
    // Anyone may send a browser here: without the app's ID token, the person is asked.
    expect(page.atOnce).toBeUndefined();
    const back = await confirmLogout(web.driver, page.xsrf);
    expect(back.href).toBe(`${uriBase}/web/signed-out?state=no-hint`);
    await verifiedLogoutToken(backend.tokens);
    expect((await silentSignIn(web.driver)).searchParams.get("error")).toBe("login_required");

    // No app named: the person lands on Vrata's own signed-out page.
    const again = await signedInToBoth("tine");
    const bare = await confirmationPage(again.web.driver, new URL(`${server.issuer}/auth/oidc/logout`));
    const landed = await confirmLogout(again.web.driver, bare.page.xsrf);
    expect(landed.href).toBe(`${server.issuer}/auth/oidc/logout/success`);
    const signedOut = await again.web.driver.fetch(landed.href, { headers: { accept: "text/html" } });
    expect(signedOut.status).toBe(200);
    await verifiedLogoutToken(again.backend.tokens);
  });

  it("asks before signing out when the session signs in to another organization's app too", async () => {
    const { jar, web } = await signedInToBoth("ula");
    const other = await FlowDriver.start(
      server.issuer,
      await registerTestApp(server.db, "Elsewhere"),
      {},
      undefined,
      jar,
    );
    const [identity] = await other.identities();
    await other.step("chooseIdentity", { identity: { id: identity?.id } });
    await other.step("redirect");
    await other.exchange(await other.returnToApp());
    const logoutUrl = client.buildEndSessionUrl(web.driver.config, {
      id_token_hint: web.tokens.id_token ?? "",
    });
    expect((await confirmationPage(web.driver, logoutUrl)).page.atOnce).toBeUndefined();
  });

  it("refuses a post-logout redirect URI the app did not register, and keeps the session", async () => {
    const { web, backend } = await signedInToBoth("urh");
    for (const elsewhere of ["https://evil.example/signed-out", `${uriBase}/backend/signed-out`]) {
      const logoutUrl = client.buildEndSessionUrl(web.driver.config, {
        id_token_hint: web.tokens.id_token ?? "",
        post_logout_redirect_uri: elsewhere,
      });
      const response = await web.driver.fetch(logoutUrl.href, { headers: { accept: "text/html" } });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("invalid_request");
    }
    expect((await silentSignIn(web.driver)).searchParams.get("code")).toBeTruthy();
    // The backend app's part of the session was never ended: the receiver got nothing for it.
    const sid = backend.tokens.claims()?.["sid"];
    expect(sid).toBeTruthy();
    expect(receiver.tokens.filter((token) => decodeJwt(token).sid === sid)).toEqual([]);
  });

  it("refuses an id_token_hint that Vrata did not sign", async () => {
    const { web } = await signedInToBoth("vid");
    const [header, payload] = (web.tokens.id_token ?? "").split(".");
    const forged = `${header}.${payload}.${"A".repeat(86)}`;
    const logoutUrl = client.buildEndSessionUrl(web.driver.config, { id_token_hint: forged });
    const response = await web.driver.fetch(logoutUrl.href, { headers: { accept: "text/html" } });
    expect(response.status).toBe(400);
    expect((await silentSignIn(web.driver)).searchParams.get("code")).toBeTruthy();
  });

  it("continues a logout form posted by another site as a GET, so the browser's session cookie comes along", async () => {
    const { web, backend } = await signedInToBoth("zala");
    const posted = await web.driver.fetch(`${server.issuer}/auth/oidc/logout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: appOf("web").clientId,
        post_logout_redirect_uri: `${uriBase}/web/signed-out`,
        state: "posted",
      }).toString(),
    });
    expect(posted.status).toBe(303);
    const asGet = new URL(posted.headers.get("location") ?? "", server.issuer);
    expect(asGet.pathname).toBe("/auth/oidc/logout");
    const { page } = await confirmationPage(web.driver, asGet);
    expect((await confirmLogout(web.driver, page.xsrf)).searchParams.get("state")).toBe("posted");
    await verifiedLogoutToken(backend.tokens);
  });

  it("tells the backend when the person signs out of Vrata", async () => {
    const { web, backend } = await signedInToBoth("ema");
    const signOut = await web.driver.fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(signOut.status).toBe(200);
    await verifiedLogoutToken(backend.tokens);
  });

  it("tells the backend when an admin blocks the person", async () => {
    const { backend } = await signedInToBoth("borut");
    const sub = backend.tokens.claims()?.sub ?? "";
    const blocked = await postJson(owner.api, `/api/o/block/${organization.id}/${sub}`, {
      scope: "identity",
      adminNote: "spam",
      userNote: "",
    });
    expect(blocked.status).toBe(200);
    await verifiedLogoutToken(backend.tokens);
  });

  it("tries an app that is down again, and records in the organization's activity when it never answers", async () => {
    const { web, backend } = await signedInToBoth("jan");
    receiver.failNext = 1;
    const attemptsBefore = receiver.attempts;
    const signOut = () =>
      web.driver.fetch(`${server.url}/auth/signout`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
    await signOut();
    // The first attempt failed; the retry delivers it.
    await verifiedLogoutToken(backend.tokens);
    expect(receiver.attempts - attemptsBefore).toBe(2);

    const second = await signedInToBoth("jan");
    receiver.failNext = 100;
    await second.web.driver.fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expect
      .poll(async () => {
        const page = activityPageSchema.parse(
          await (await owner.api(`/api/o/activity/${organization.id}`)).json(),
        );
        return page.items.map((entry) => entry.type);
      })
      .toContain("backchannelLogoutFailed");
    receiver.failNext = 0;
  });
});
