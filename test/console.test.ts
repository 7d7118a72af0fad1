import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identityListSchema, identitySchema } from "../src/common/api/identity.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleApp, consoleSignUp as signUp } from "./support/console.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
let consoleClient: TestApp;

beforeAll(async () => {
  server = await startTestServer();
  consoleClient = await consoleApp(server.url);
});
afterAll(() => server.dispose());

const consoleSignUp = (username: string) => signUp(server.url, username);

describe("console APIs with the console's access token", () => {
  it("lists, creates, reads and updates one's own identities", async () => {
    const { api, identityId } = await consoleSignUp("olga");
    const list = identityListSchema.parse(await (await api("/api/i")).json());
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: identityId, username: "olga", isCurrent: true, canUpdate: true });

    const created = await api("/api/i/create", {
      method: "POST",
      body: JSON.stringify({ fullName: "Olga Work" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = identitySchema.parse(await (await api(`/api/i/${id}`)).json());
    expect(read).toMatchObject({ fullName: "Olga Work", version: 1, isCurrent: false });

    const update = (version: number) =>
      api(`/api/i/update/${id}`, {
        method: "POST",
        body: JSON.stringify({ version, fullName: "Olga at Work", description: "for work" }),
      });
    expect(identitySchema.parse(await (await update(1)).json())).toMatchObject({
      version: 2,
      fullName: "Olga at Work",
    });
    // A stale version is refused instead of overwriting what someone else saved.
    expect((await update(1)).status).toBe(409);

    const empty = await api("/api/i/create", {
      method: "POST",
      body: JSON.stringify({ description: "no name" }),
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "emptyIdentity" });
    const badPicture = await api("/api/i/create", {
      method: "POST",
      body: JSON.stringify({ username: "olga2", pictureUrl: "http://example.com/me.png" }),
    });
    expect(await badPicture.json()).toMatchObject({ error: "invalidPictureUrl" });
    const lookAlike = await api("/api/i/create", {
      method: "POST",
      body: JSON.stringify({ username: "pаypal" }),
    });
    expect(lookAlike.status).toBe(400);
    expect(await lookAlike.json()).toMatchObject({ error: "invalidUsername", field: "username" });
  });

  it("keeps people's identities apart", async () => {
    const first = await consoleSignUp("pia");
    const second = await consoleSignUp("quinn");
    expect((await second.api(`/api/i/${first.identityId}`)).status).toBe(404);
    const update = await second.api(`/api/i/update/${first.identityId}`, {
      method: "POST",
      body: JSON.stringify({ version: 1, username: "stolen" }),
    });
    expect(update.status).toBe(404);
    expect((await fetch(`${server.url}/api/i`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/i`, { headers: { authorization: "Bearer nope" } })).status).toBe(
      401,
    );
  });

  it("shows the person's activity newest first", async () => {
    const { api } = await consoleSignUp("rita");
    const page = activityPageSchema.parse(await (await api("/api/activity")).json());
    expect(page.items.map((item) => item.type)).toEqual(["signIn", "identityUpdate", "identityCreate"]);
    // Joining the built-in organization, named with a link to its page.
    const [joined] = page.items[1]?.changes ?? [];
    expect(joined?.kind).toBe("membershipAdded");
    expect(joined?.organizations).toEqual([
      { id: consoleClient.organizationId, name: "Vrata", path: `/o/${consoleClient.organizationId}` },
    ]);
    const entry = await api(`/api/activity/${page.items[0]?.id ?? ""}`);
    expect(await entry.json()).toMatchObject({ type: "signIn", providers: ["password"] });
  });
});

describe("single sign-on and sign-out", () => {
  it("signs in again silently with prompt=none until the person signs out", async () => {
    const { driver, api, tokens } = await consoleSignUp("sam");
    const again = driver.fetch;
    const authorize = new URL(`${server.issuer}/auth/oidc/authorize`);
    authorize.search = new URLSearchParams({
      client_id: consoleClient.clientId,
      redirect_uri: consoleClient.redirectUri,
      response_type: "code",
      scope: "openid profile email",
      prompt: "none",
      state: "silent",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }).toString();
    const answer = new URL((await again(authorize.href)).headers.get("location") ?? "", server.issuer);
    expect(answer.searchParams.get("code")).toBeTruthy();

    // The console's fetch carries the browser's cookies along with its token.
    const signOut = await driver.fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ location: "/i" }),
    });
    expect(await signOut.json()).toEqual({ location: "/i" });
    expect((await api("/api/i")).status).toBe(401);

    // The browser's single sign-on session ended with it.
    const cookies = driver.jar.header(`${server.url}/`);
    const afterSignOut = await again(authorize.href);
    expect(cookies).not.toContain("__Host-session-");
    expect(cookies).not.toContain("__Host-vrata.session");
    const denied = new URL(afterSignOut.headers.get("location") ?? "", server.issuer);
    expect(denied.searchParams.get("error")).toBe("login_required");
  });

  it("refuses a sign-out location off this site", async () => {
    const response = await fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ location: "https://evil.example/" }),
    });
    expect(response.status).toBe(400);
  });
});
