import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema, activitySchema } from "../src/common/api/activity.ts";
import { organizationUsersPageSchema, type Organization } from "../src/common/api/organization.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import {
  organizationWithApp,
  readOrganization,
  signInToApp,
  updateOrganization,
  type ConsoleUser,
} from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

describe.each(storeEngines)("organization activity on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;
  let organization: Organization;
  let app: TestApp;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "vesna");
    ({ organization, app } = await organizationWithApp(owner, "Watched"));
  });
  afterAll(() => server.dispose());

  const activity = async (id: string, query = "") => {
    const response = await owner.api(`/api/o/activity/${id}${query}`);
    expect(response.status).toBe(200);
    return activityPageSchema.parse(await response.json());
  };

  describe("an organization's activity", () => {
    it("shows members' sign-ins and joining, and the admins' changes, as the organization sees them", async () => {
      const member = await signInToApp(server.url, app, "lara");
      const scopedId = member.tokens.claims()?.sub ?? "";
      const { items } = await activity(organization.id);
      const [signIn, joined] = items;
      expect(signIn).toMatchObject({
        type: "signIn",
        actor: { id: scopedId, name: "lara", path: `/o/identity/${organization.id}/${scopedId}` },
        identities: [{ id: scopedId, name: "lara" }],
        applications: [{ applicationId: app.applicationId, name: "Watched app" }],
      });
      expect(joined).toMatchObject({
        type: "organizationUpdate",
        changes: [{ kind: "identitiesAdded", identities: [{ id: scopedId, name: "lara" }] }],
      });
      // The identity's own ID is never in the organization's view.
      expect(JSON.stringify(items)).not.toContain(member.identityId);
      const adminChanges = items.filter((entry) => entry.actor?.id === owner.identityId);
      expect(adminChanges.map((entry) => entry.type)).toEqual(["organizationUpdate", "organizationCreate"]);
      expect(adminChanges[0]?.changes).toMatchObject([{ kind: "membershipAdded" }]);

      // One entry, and only the organization's.
      const one = await owner.api(`/api/o/activity/${organization.id}/${signIn?.id ?? ""}`);
      expect(activitySchema.parse(await one.json())).toMatchObject({
        type: "signIn",
        actor: { id: scopedId },
      });
      const { organization: other } = await organizationWithApp(owner, "Elsewhere");
      expect((await owner.api(`/api/o/activity/${other.id}/${signIn?.id ?? ""}`)).status).toBe(404);
    });

    it("is filtered by type and by member", async () => {
      const { organization: filtered, app: filteredApp } = await organizationWithApp(owner, "Filtered");
      const mia = await signInToApp(server.url, filteredApp, "mia");
      await signInToApp(server.url, filteredApp, "nik");
      await signInToApp(server.url, filteredApp, "mia");
      const signIns = await activity(filtered.id, "?category=signIns");
      expect(signIns.items.map((entry) => entry.type)).toEqual(["signIn", "signIn", "signIn"]);
      const organizations = await activity(filtered.id, "?category=organizations");
      expect(organizations.items.every((entry) => entry.type.startsWith("organization"))).toBe(true);
      const miaId = mia.tokens.claims()?.sub ?? "";
      const ofMia = await activity(filtered.id, `?identity=${miaId}`);
      // Newest first: her second sign-in, then her first and her joining, which may share a millisecond.
      const ofMiaTypes = ofMia.items.map((entry) => entry.type);
      expect(ofMiaTypes[0]).toBe("signIn");
      expect(ofMiaTypes.slice(1).sort()).toEqual(["organizationUpdate", "signIn"]);
      expect(ofMia.items.every((entry) => entry.actor?.id === miaId)).toBe(true);
      const miaSignIns = await activity(filtered.id, `?identity=${miaId}&category=signIns`);
      expect(miaSignIns.items).toHaveLength(2);
      expect((await owner.api(`/api/o/activity/${filtered.id}?identity=not-an-id`)).status).toBe(400);
    });

    it("pages stay stable while new activity arrives", async () => {
      const { organization: busy, app: busyApp } = await organizationWithApp(owner, "Busy");
      for (let index = 0; index < 11; index++) await signInToApp(server.url, busyApp, `busy${index}`);
      // 11 joins, 11 sign-ins, the creation and the update that added the app: 24 entries.
      const first = await activity(busy.id);
      expect(first.items).toHaveLength(20);
      await signInToApp(server.url, busyApp, "late");
      const second = await activity(busy.id, `?cursor=${encodeURIComponent(first.next ?? "")}`);
      expect(second.next).toBeUndefined();
      const ids = [...first.items, ...second.items].map((entry) => entry.id);
      expect(ids).toHaveLength(24);
      expect(new Set(ids).size).toBe(24);
      expect(second.items.at(-1)?.type).toBe("organizationCreate");
      expect((await activity(busy.id)).items[0]?.actor?.name).toBe("late");
    });

    it("is refused to non-admins (403) and strangers (401); an unknown organization is not found", async () => {
      const member = await consoleSignUp(server.url, "tilen");
      for (const path of [
        `/api/o/activity/${organization.id}`,
        `/api/o/activity/${organization.id}/${"2".repeat(22)}`,
      ]) {
        expect((await member.api(path)).status).toBe(403);
        expect((await fetch(server.url + path)).status).toBe(401);
      }
      expect((await owner.api(`/api/o/activity/${"2".repeat(22)}`)).status).toBe(404);
    });
  });

  describe("a disabled organization", () => {
    it("refuses sign-in with its own message and tokens, and records who disabled it", async () => {
      const { organization: closing, app: closingApp } = await organizationWithApp(owner, "Closing");
      const member = await signInToApp(server.url, closingApp, "zala");
      const current = await readOrganization(owner.api, closing.id);
      expect(current.active).toBe(true);
      const disabled = await updateOrganization(owner.api, current, { active: false });
      expect(disabled.status).toBe(200);
      expect((await readOrganization(owner.api, closing.id)).active).toBe(false);

      // Signing in stops at a page that says why.
      const authorize = client.buildAuthorizationUrl(member.driver.config, {
        redirect_uri: closingApp.redirectUri,
        scope: "openid",
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: "S256",
      });
      const page = await fetch(authorize);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('"error":"organizationDisabled"');

      // Tokens issued before stop working; the refresh token gets no new ones.
      const userinfo = await fetch(`${server.issuer}/auth/oidc/userinfo`, {
        headers: { authorization: `Bearer ${member.tokens.access_token}` },
      });
      expect(userinfo.status).toBe(401);
      await expect(
        client.refreshTokenGrant(member.driver.config, member.tokens.refresh_token ?? ""),
      ).rejects.toThrow();
      await expect(FlowDriver.start(server.url, closingApp)).rejects.toThrow();

      const { items } = await activity(closing.id);
      expect(items[0]).toMatchObject({
        type: "organizationUpdate",
        actor: { id: owner.identityId },
        changes: [{ kind: "membershipDisabled", organizations: [{ id: closing.id }] }],
      });

      // Enabled again, its app signs people in again.
      const reenabled = await updateOrganization(owner.api, await readOrganization(owner.api, closing.id), {
        active: true,
      });
      expect(reenabled.status).toBe(200);
      await signInToApp(server.url, closingApp, "zala");
      const users = organizationUsersPageSchema.parse(
        await (await owner.api(`/api/o/users/${closing.id}`)).json(),
      );
      expect(users.items.map((user) => user.username)).toEqual(["zala"]);
    });
  });
});
