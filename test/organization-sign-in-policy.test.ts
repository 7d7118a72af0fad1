import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { identitySchema } from "../src/common/api/identity.ts";
import {
  organizationSchema,
  organizationUsersPageSchema,
  type Organization,
} from "../src/common/api/organization.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import {
  organizationWithApp,
  readOrganization,
  signInToApp,
  updateOrganization,
  type ConsoleUser,
} from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { accountOfUsername, addAuthenticatorApp, addPasskey } from "./support/second-factors.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// An organization's sign-in policy, set by its admins, and the second factors its members have as its
// users list shows them.

describe.each(storeEngines)("organization sign-in policies on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;
  let organization: Organization;
  let app: TestApp;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "olga");
    ({ organization, app } = await organizationWithApp(owner, "Policy club"));
  });
  afterAll(() => server.dispose());

  const organizationActivity = async (id: string) => {
    const response = await owner.api(`/api/o/activity/${id}?category=organizations`);
    expect(response.status).toBe(200);
    return activityPageSchema.parse(await response.json()).items;
  };

  describe("the policy", () => {
    it("is any way of signing in unless given at creation, and is read by anybody", async () => {
      expect(organization.signInPolicy).toBe("any");
      const created = await postJson(owner.api, "/api/o/create", {
        name: "Strict club",
        signInPolicy: "passkey",
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      expect((await readOrganization(owner.api, id)).signInPolicy).toBe("passkey");
      const anonymous = organizationSchema.parse(await (await fetch(`${server.url}/api/o/${id}`)).json());
      expect(anonymous).toMatchObject({ signInPolicy: "passkey", canUpdate: false });
      const unknown = await postJson(owner.api, "/api/o/create", {
        name: "Odd club",
        signInPolicy: "retina",
      });
      expect(unknown.status).toBe(400);
    });

    it("is changed by an admin, recorded as other data, and kept by updates that do not name it", async () => {
      const { organization: club } = await organizationWithApp(owner, "Changing club");
      const changed = await updateOrganization(owner.api, club, { signInPolicy: "secondFactor" });
      expect(changed.status).toBe(200);
      const saved = organizationSchema.parse(await changed.json());
      expect(saved).toMatchObject({ signInPolicy: "secondFactor", version: club.version + 1 });

      const [entry] = await organizationActivity(club.id);
      expect(entry).toMatchObject({
        type: "organizationUpdate",
        changes: [{ kind: "otherData", fields: ["signInPolicy"] }],
      });

      // Another change leaves the policy as it is, and records only what it changed.
      const renamed = await updateOrganization(owner.api, saved, { name: "Changed club" });
      expect(renamed.status).toBe(200);
      expect(organizationSchema.parse(await renamed.json())).toMatchObject({
        name: "Changed club",
        signInPolicy: "secondFactor",
      });
      expect((await readOrganization(owner.api, club.id)).signInPolicy).toBe("secondFactor");
      const [latest] = await organizationActivity(club.id);
      expect(latest?.changes).toEqual([{ kind: "otherData", fields: ["name"] }]);

      // Back to any: saved as an organization that never had a policy, and recorded again.
      const current = await readOrganization(owner.api, club.id);
      const back = await updateOrganization(owner.api, current, { signInPolicy: "any" });
      expect(organizationSchema.parse(await back.json()).signInPolicy).toBe("any");
      const again = await updateOrganization(owner.api, await readOrganization(owner.api, club.id), {
        signInPolicy: "any",
      });
      expect(again.status).toBe(200);
      const entries = await organizationActivity(club.id);
      expect(entries.filter((item) => item.changes?.[0]?.fields?.includes("signInPolicy"))).toHaveLength(2);
    });

    it("is refused to non-admins and over a stale version, and stays as it was", async () => {
      const { organization: club } = await organizationWithApp(owner, "Guarded club");
      const stranger = await consoleSignUp(server.url, "stanko");
      const refused = await updateOrganization(stranger.api, club, { signInPolicy: "passkey" });
      expect(refused.status).toBe(403);
      const anonymous = await fetch(`${server.url}/api/o/update/${club.id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          version: club.version,
          name: club.name,
          admins: [],
          applications: [],
          signInPolicy: "passkey",
        }),
      });
      expect(anonymous.status).toBe(401);

      expect((await updateOrganization(owner.api, club, { description: "first" })).status).toBe(200);
      const stale = await updateOrganization(owner.api, club, { signInPolicy: "passkey" });
      expect(stale.status).toBe(409);
      expect(((await stale.json()) as { error: string }).error).toBe("conflict");
      const bad = await updateOrganization(owner.api, await readOrganization(owner.api, club.id), {
        signInPolicy: "everything",
      });
      expect(bad.status).toBe(400);
      expect((await readOrganization(owner.api, club.id)).signInPolicy).toBe("any");
    });
  });

  describe("members' second factors", () => {
    const users = async () => {
      const response = await owner.api(`/api/o/users/${organization.id}`);
      expect(response.status).toBe(200);
      return organizationUsersPageSchema.parse(await response.json()).items;
    };
    const factorsOf = async (username: string) =>
      (await users()).find((user) => user.username === username)?.secondFactors;

    it("are the authenticator app and passkey the member's account has", async () => {
      await signInToApp(server.url, app, "marta");
      expect(await factorsOf("marta")).toEqual([]);

      const nejc = await consoleSignUp(server.url, "nejc");
      await addPasskey(server, nejc.api);
      await signInToApp(server.url, app, "nejc");
      expect(await factorsOf("nejc")).toEqual(["passkey"]);

      await signInToApp(server.url, app, "petra");
      await addAuthenticatorApp(server, await accountOfUsername(server, "petra"));
      expect(await factorsOf("petra")).toEqual(["totp"]);
      await addAuthenticatorApp(server, await accountOfUsername(server, "nejc"));
      expect(await factorsOf("nejc")).toEqual(["totp", "passkey"]);
    });

    it("of an identity shared with another account are only those both accounts have", async () => {
      const ana = await consoleSignUp(server.url, "ana");
      await addPasskey(server, ana.api);
      await addAuthenticatorApp(server, await accountOfUsername(server, "ana"));
      const bojan = await consoleSignUp(server.url, "bojan");
      await addAuthenticatorApp(server, await accountOfUsername(server, "bojan"));
      await signInToApp(server.url, app, "ana");
      expect(await factorsOf("ana")).toEqual(["totp", "passkey"]);

      // Shared with Bojan, the identity is signed in to with his account too, which has no passkey.
      const identity = identitySchema.parse(await (await ana.api(`/api/i/${ana.identityId}`)).json());
      const shared = await postJson(ana.api, `/api/i/update/${ana.identityId}`, {
        version: identity.version,
        users: [{ person: "bojan" }],
      });
      expect(shared.status).toBe(200);
      expect(await factorsOf("ana")).toEqual(["totp"]);
      await addPasskey(server, bojan.api);
      expect(await factorsOf("ana")).toEqual(["totp", "passkey"]);

      // Nothing else about the accounts shows: not Bojan's own identity, nor any account.
      const listed = JSON.stringify(await users());
      expect(listed).not.toContain(bojan.identityId);
      expect(listed).not.toContain(ana.identityId);
      expect(listed).not.toContain(await accountOfUsername(server, "bojan"));
      expect(listed).not.toContain(await accountOfUsername(server, "ana"));
      const [member] = (await users()).filter((user) => user.username === "ana");
      expect(Object.keys(member ?? {}).sort()).toEqual(
        [
          "admin",
          "applications",
          "id",
          "joinedAt",
          "lastSignedInAt",
          "secondFactors",
          "status",
          "username",
        ].sort(),
      );
    });

    it("are shown for members found by a search too", async () => {
      const response = await owner.api(`/api/o/users/${organization.id}?q=nejc`);
      const found = organizationUsersPageSchema.parse(await response.json()).items;
      expect(found.map((user) => [user.username, user.secondFactors])).toEqual([
        ["nejc", ["totp", "passkey"]],
      ]);
    });
  });
});
