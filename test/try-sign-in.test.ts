import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicApplicationSchema } from "../src/common/api/organization.ts";
import { pathFor } from "../src/common/routes.ts";
import { tryClientIdOf } from "../src/server/organizations/try-client.ts";
import type { TestApp } from "./support/apps.ts";
import { CookieJar } from "./support/browser.ts";
import { consoleSignUp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { organizationWithApp, signInThrough, type ConsoleUser } from "./support/organization-admin.ts";
import { pageErrorOf } from "./support/page-error.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// "Try signing in" runs an app's sign-in as the app's test client: the person is known to it exactly
// as to the app's own clients, and its codes reach nothing but the console's page on Vrata's origin.

describe.each(storeEngines)("the test client of an app on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;
  let notes: TestApp;
  let tester: TestApp;

  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    owner = await consoleSignUp(server.issuer, "ursula");
    notes = (await organizationWithApp(owner, "Notes")).app;
    tester = {
      ...notes,
      clientId: tryClientIdOf(notes.applicationId),
      redirectUri:
        server.issuer +
        pathFor("OrganizationAppTry", { id: notes.organizationId, appId: notes.applicationId }),
    };
  });
  afterAll(async () => {
    await server.dispose();
  });

  const applicationOf = async (app: TestApp) =>
    publicApplicationSchema.parse(
      await (
        await owner.api(
          `/api${pathFor("OrganizationApp", { id: app.organizationId, appId: app.applicationId })}`,
        )
      ).json(),
    );

  it("is offered to the app's admins with the scopes of its sign-in clients, without a refresh token", async () => {
    const application = await applicationOf(notes);
    expect(application.trySignIn).toEqual({ clientId: tester.clientId, scopes: ["openid", "profile"] });
    expect(application.clients?.map((configured) => configured.id)).not.toContain(tester.clientId);

    const anonymous = await fetch(
      `${server.issuer}/api${pathFor("OrganizationApp", { id: notes.organizationId, appId: notes.applicationId })}`,
    );
    expect(await anonymous.json()).not.toHaveProperty("trySignIn");
  });

  it("knows a person by the sub the app's own client knows them by, whichever signs in first", async () => {
    const jar = new CookieJar();
    const atApp = await FlowDriver.start(server.issuer, notes, { scope: "openid profile" }, undefined, jar);
    const appSub = (await signInThrough(atApp, "marta")).tokens.claims()?.sub;
    expect(appSub).toBeTruthy();

    // Signed in, with the identity chosen for the app: the test client is answered at once.
    const tried = await FlowDriver.startSignedIn(
      server.issuer,
      tester,
      { scope: "openid profile" },
      undefined,
      jar,
    );
    const tokens = await tried.driver.exchange(tried.callback);
    expect(tokens.claims()).toMatchObject({ sub: appSub, aud: tester.clientId });
    expect(tokens.scope?.split(" ").sort()).toEqual(["openid", "profile"]);
    expect(await client.fetchUserInfo(tried.driver.config, tokens.access_token, appSub ?? "")).toMatchObject({
      sub: appSub,
    });

    // Another person tries first; the app's own client then knows them by the same sub.
    const other = new CookieJar();
    const first = await FlowDriver.start(
      server.issuer,
      tester,
      { scope: "openid profile" },
      undefined,
      other,
    );
    const triedSub = (await signInThrough(first, "nada")).tokens.claims()?.sub;
    const back = await FlowDriver.startSignedIn(
      server.issuer,
      notes,
      { scope: "openid profile" },
      undefined,
      other,
    );
    expect((await back.driver.exchange(back.callback)).claims()?.sub).toBe(triedSub);
    expect(triedSub).not.toBe(appSub);
  });

  it("sends codes nowhere but the console's page for the app", async () => {
    for (const redirectUri of [notes.redirectUri, `${server.issuer}/`, `${tester.redirectUri}/`]) {
      const config = await client.discovery(
        new URL(server.issuer),
        tester.clientId,
        undefined,
        client.None(),
      );
      const authorization = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: "openid",
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: "S256",
        state: client.randomState(),
      });
      const response = await fetch(authorization, { redirect: "manual" });
      expect(response.status, redirectUri).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(pageErrorOf(await response.text())?.error, redirectUri).toBe("invalid_redirect_uri");
    }
  });

  it("exists only for apps that sign people in", async () => {
    const reports = (
      await organizationWithApp(owner, "Reports", { clientsService: [{ description: "nightly export" }] })
    ).app;
    expect((await applicationOf(reports)).trySignIn).toBeUndefined();

    const authorization = new URL(`${server.issuer}/auth/oidc/authorize`);
    authorization.search = new URLSearchParams({
      client_id: tryClientIdOf(reports.applicationId),
      redirect_uri:
        server.issuer +
        pathFor("OrganizationAppTry", { id: reports.organizationId, appId: reports.applicationId }),
      response_type: "code",
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const response = await fetch(authorization, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(pageErrorOf(await response.text())?.error).toBe("invalid_client");
  });
});
