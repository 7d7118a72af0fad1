import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { blockPageSchema, blockStatusSchema } from "../src/common/api/block.ts";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { templateSchema, type Template } from "../src/common/api/template.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Blocking an organization's identities: who may, what the blocked and the others learn, and that a
// block ends the identity's tokens and sign-ins there at once, until it is lifted.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("blocks on $name", ({ url }) => {
  let server: TestServer;
  let owner: Person;
  let template: Template;
  let organization: Organization;
  let introspector: client.Configuration;

  const uriBase = "https://blocks.example";
  const tokenTypes = ["hmac", "jwt"] as const;
  type TokenType = (typeof tokenTypes)[number];

  function clientOf(description: string): { clientId: string; secret: string } {
    const application = organization.applications?.[0];
    const all = [...template.clientsPublic, ...template.clientsBackend];
    const templateClientId = all.find((candidate) => candidate.description === description)?.id;
    const clients = [...(application?.clientsPublic ?? []), ...(application?.clientsBackend ?? [])];
    const clientId = clients.find((candidate) => candidate.templateClientId === templateClientId)?.id ?? "";
    const secret = organization.secrets?.find((candidate) => candidate.clientId === clientId)?.secret ?? "";
    return { clientId, secret };
  }

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "olga");
    const created = await postJson(owner.api, "/api/a/create", {
      name: "Blocks",
      idScopes: ["openid", "profile"],
      variables: [{ name: "uriBase" }],
      clientsPublic: tokenTypes.map((type) => ({
        description: type,
        accessTokenType: type,
        additionalScopes: ["offline_access"],
        redirectUriTemplates: [`{uriBase}/${type}`],
      })),
      clientsBackend: [{ description: "introspector", redirectUriTemplates: ["{uriBase}/api"] }],
    });
    const { id: templateId } = (await created.json()) as { id: string };
    template = templateSchema.parse(await (await owner.api(`/api/a/${templateId}`)).json());
    const { id } = (await (await postJson(owner.api, "/api/o/create", { name: "Blockers" })).json()) as {
      id: string;
    };
    const added = await postJson(owner.api, `/api/o/update/${id}`, {
      version: 1,
      name: "Blockers",
      admins: [],
      applications: [{ templateId, active: true, values: [{ name: "uriBase", value: uriBase }] }],
    });
    organization = organizationSchema.parse(await added.json());
    const { clientId, secret } = clientOf("introspector");
    introspector = await client.discovery(
      new URL(server.issuer),
      clientId,
      undefined,
      client.ClientSecretBasic(secret),
    );
  });
  afterAll(() => server.dispose());

  /** Signs the person in to the organization's app; `identity` picks one (else the first offered). */
  async function signIn(username: string, type: TokenType = "hmac") {
    const app = {
      clientId: clientOf(type).clientId,
      organizationId: organization.id,
      applicationId: organization.applications?.[0]?.id ?? "",
      redirectUri: `${uriBase}/${type}`,
    };
    const driver = await FlowDriver.start(server.issuer, app, {
      scope: "openid profile offline_access",
      prompt: "consent",
    });
    await driver.step("passwordStart", { emailOrUsername: username });
    await driver.step("passwordComplete", { password: `${username}'s passphrase` });
    return driver;
  }

  async function finish(driver: FlowDriver, identityId: string) {
    const chosen = await driver.raw("chooseIdentity", { identity: { id: identityId } });
    expect(chosen.status).toBe(200);
    await driver.step("redirect");
    const tokens = await driver.exchange(await driver.returnToApp());
    return { tokens, sub: tokens.claims()?.sub ?? "" };
  }

  const blockPath = (scopedId: string, org = organization.id) => `/api/o/block/${org}/${scopedId}`;
  const statusPath = (scopedId: string, org = organization.id) => `/api/o/blocked/${org}/${scopedId}`;

  async function status(api: ConsoleApi, scopedId: string) {
    const response = await api(statusPath(scopedId));
    expect(response.status).toBe(200);
    return blockStatusSchema.parse(await response.json());
  }

  const activityTypes = async (person: Person) =>
    activityPageSchema
      .parse(await (await person.api("/api/activity")).json())
      .items.map((entry) => entry.type);

  describe("blocking only the identity", () => {
    let member: Person;
    let other: Person;
    let sub: string;
    const signedIn: Record<TokenType, client.TokenEndpointResponse & client.TokenEndpointResponseHelpers> =
      {} as never;

    beforeAll(async () => {
      member = await consoleSignUp(server.url, "mia");
      other = await consoleSignUp(server.url, "otto");
      for (const type of tokenTypes) {
        const result = await finish(await signIn("mia", type), member.identityId);
        signedIn[type] = result.tokens;
        sub = result.sub;
      }
    });

    it("is for the organization's admins only", async () => {
      const anonymous = (path: string, init?: RequestInit) => fetch(server.url + path, init);
      for (const [caller, expected] of [
        [member.api, 403],
        [other.api, 403],
        [anonymous, 401],
      ] as const) {
        expect((await caller(blockPath(sub))).status).toBe(expected);
        expect((await postJson(caller, blockPath(sub), { scope: "identity" })).status).toBe(expected);
        expect((await postJson(caller, blockPath(sub), { unblock: true })).status).toBe(expected);
      }
      expect((await owner.api(blockPath("1111111111111111111111", organization.id))).status).toBe(404);
      expect((await owner.api(blockPath(sub, "1111111111111111111111"))).status).toBe(404);
      const page = blockPageSchema.parse(await (await owner.api(blockPath(sub))).json());
      expect(page).toMatchObject({ identity: { id: sub, username: "mia", blocked: false }, block: null });
    });

    it("refuses bad input", async () => {
      for (const body of [
        {},
        { scope: "everything" },
        { scope: "identity", adminNote: "x".repeat(2001) },
        { scope: "identity", accounts: ["a"] },
        { unblock: false },
        { scope: "identity", unblock: true },
      ]) {
        const response = await postJson(owner.api, blockPath(sub), body);
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
      const notJson = await owner.api(blockPath(sub), { method: "POST", body: "scope=identity" });
      expect(notJson.status).toBeGreaterThanOrEqual(400);
      expect(notJson.status).toBeLessThan(500);
      expect((await postJson(owner.api, blockPath(sub), { unblock: true })).status).toBe(409);
    });

    it("blocks once when two admins block at the same moment, and ends the tokens at once", async () => {
      for (const type of tokenTypes)
        expect(await client.tokenIntrospection(introspector, signedIn[type].access_token)).toMatchObject({
          active: true,
        });
      const body = { scope: "identity", adminNote: "Spam in comments", userNote: "Write to support" };
      const answers = await Promise.all([1, 2, 3].map(() => postJson(owner.api, blockPath(sub), body)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
      const ok = answers.find((answer) => answer.status === 200);
      const page = blockPageSchema.parse(await ok?.json());
      expect(page.identity.blocked).toBe(true);
      expect(page.block).toMatchObject({
        scope: "identity",
        adminNote: "Spam in comments",
        userNote: "Write to support",
        blockedBy: { id: owner.identityId, name: "olga" },
      });

      for (const type of tokenTypes) {
        const tokens = signedIn[type];
        expect(await client.tokenIntrospection(introspector, tokens.access_token)).toEqual({ active: false });
        const config = (await signIn("mia", type)).config;
        await expect(client.fetchUserInfo(config, tokens.access_token, sub)).rejects.toThrow();
        await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toThrow();
      }
    });

    it("shows in the organization's users list and activity", async () => {
      const users = (await (await owner.api(`/api/o/users/${organization.id}?q=mia`)).json()) as {
        items: { id: string; status: string }[];
      };
      expect(users.items).toEqual([expect.objectContaining({ id: sub, status: "blocked" })]);
      const activity = activityPageSchema.parse(
        await (await owner.api(`/api/o/activity/${organization.id}`)).json(),
      );
      const blocked = activity.items.filter((entry) => entry.type === "identityBlocked");
      expect(blocked).toHaveLength(1);
      // The organization's record names the admin who blocked, as the organization lists its admins.
      expect(blocked[0]?.actor).toEqual({ id: owner.identityId, name: "olga" });
    });

    it("answers the status to the admins, to the blocked person without the admins' note, and to nobody else", async () => {
      expect(await status(owner.api, sub)).toMatchObject({
        blocked: true,
        scope: "identity",
        adminNote: "Spam in comments",
        userNote: "Write to support",
      });
      const own = await status(member.api, sub);
      expect(own).toMatchObject({ blocked: true, userNote: "Write to support" });
      expect(own.adminNote).toBeUndefined();
      expect((await other.api(statusPath(sub))).status).toBe(404);
      expect((await fetch(server.url + statusPath(sub))).status).toBe(401);
      expect((await other.api(statusPath(sub, "1111111111111111111111"))).status).toBe(404);
    });

    it("shows the identity blocked with its note in the identity step, where another identity can be used", async () => {
      const driver = await signIn("mia");
      const listed = await driver.identities();
      expect(listed.find((identity) => identity.id === member.identityId)).toMatchObject({
        blocked: true,
        blockNote: "Write to support",
      });
      expect(listed.some((identity) => identity.accountBlocked)).toBe(false);
      const refused = await driver.raw("chooseIdentity", { identity: { id: member.identityId } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "identityBlocked" });
      const second = await driver.createIdentity({ username: "mia-two" });
      const { sub: secondSub } = await finish(driver, second);
      expect(secondSub).not.toBe(sub);
    });

    it("records the block in the activity of the admin and of the blocked person", async () => {
      expect(await activityTypes(owner)).toContain("identityBlocked");
      expect(await activityTypes(member)).toContain("identityBlocked");
      // The admin reads who blocked; the blocked person is not told which admin it was.
      const entries = async (person: Person) =>
        activityPageSchema.parse(await (await person.api("/api/activity")).json()).items;
      const ownerEntry = (await entries(owner)).find((entry) => entry.type === "identityBlocked");
      expect(ownerEntry?.actor).toEqual({
        id: owner.identityId,
        name: "olga",
        path: `/i/${owner.identityId}`,
      });
      const memberEntry = (await entries(member)).find((entry) => entry.type === "identityBlocked");
      expect(memberEntry).toBeDefined();
      expect(memberEntry?.actor).toBeUndefined();
    });

    it("lets the person back in once lifted", async () => {
      const lifted = await postJson(owner.api, blockPath(sub), { unblock: true });
      expect(lifted.status).toBe(200);
      expect(blockPageSchema.parse(await lifted.json())).toMatchObject({
        identity: { blocked: false },
        block: null,
      });
      expect((await postJson(owner.api, blockPath(sub), { unblock: true })).status).toBe(409);
      expect(await status(member.api, sub)).toEqual({ blocked: false });
      const { tokens, sub: again } = await finish(await signIn("mia", "jwt"), member.identityId);
      expect(again).toBe(sub);
      expect(await client.tokenIntrospection(introspector, tokens.access_token)).toMatchObject({
        active: true,
      });
      expect(await activityTypes(member)).toContain("identityUnblocked");
      expect(await activityTypes(owner)).toContain("identityUnblocked");
    });

    it("refuses an admin blocking their own identity", async () => {
      const { sub: ownSub } = await finish(await signIn("olga"), owner.identityId);
      const response = await postJson(owner.api, blockPath(ownSub), { scope: "identity" });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "blockSelf" });
    });
  });

  describe("blocking the identity and its accounts", () => {
    it("blocks every identity of the account there, new ones too, until lifted", async () => {
      const member = await consoleSignUp(server.url, "nina");
      const first = await finish(await signIn("nina"), member.identityId);
      const driver = await signIn("nina", "jwt");
      const secondId = await driver.createIdentity({ username: "nina-two" });
      const second = await finish(driver, secondId);

      const blocked = await postJson(owner.api, blockPath(first.sub), {
        scope: "identityAndAccounts",
        userNote: "Too many accounts",
      });
      expect(blocked.status).toBe(200);
      // The other identity's tokens end too, though the admins never named it.
      expect(await client.tokenIntrospection(introspector, second.tokens.access_token)).toEqual({
        active: false,
      });
      expect(await client.tokenIntrospection(introspector, first.tokens.access_token)).toEqual({
        active: false,
      });

      const again = await signIn("nina");
      const listed = await again.identities();
      expect(listed.length).toBeGreaterThanOrEqual(2);
      for (const identity of listed)
        expect(identity).toMatchObject({
          blocked: true,
          accountBlocked: true,
          blockNote: "Too many accounts",
        });
      const third = await again.createIdentity({ username: "nina-three" });
      const refused = await again.raw("chooseIdentity", { identity: { id: third } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "identityBlocked" });

      // The person learns it of the other identity too; the admins see only the identity they blocked.
      expect(await status(member.api, second.sub)).toMatchObject({
        blocked: true,
        scope: "identityAndAccounts",
        userNote: "Too many accounts",
      });
      expect(await status(owner.api, second.sub)).toEqual({ blocked: false });
      expect(await activityTypes(member)).toContain("accountBlocked");

      expect((await postJson(owner.api, blockPath(first.sub), { unblock: true })).status).toBe(200);
      const back = await finish(await signIn("nina"), third);
      expect(await client.tokenIntrospection(introspector, back.tokens.access_token)).toMatchObject({
        active: true,
      });
    });
  });
});
