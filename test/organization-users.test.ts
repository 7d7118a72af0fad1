import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationUsersPageSchema, type Organization } from "../src/common/api/organization.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp } from "./support/console.ts";
import { organizationWithApp, signInToApp, type ConsoleUser } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

describe.each(storeEngines)("organization users on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;
  let organization: Organization;
  let app: TestApp;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "olga");
    ({ organization, app } = await organizationWithApp(owner, "Members club"));
  });
  afterAll(() => server.dispose());

  const users = async (query = "") => {
    const response = await owner.api(`/api/o/users/${organization.id}${query}`);
    expect(response.status).toBe(200);
    return organizationUsersPageSchema.parse(await response.json());
  };

  describe("an organization's users", () => {
    it("are listed to admins newest first, by scoped ID, with status, apps, joining and last sign-in", async () => {
      const before = Date.now();
      const first = await signInToApp(server.url, app, "marta");
      const second = await signInToApp(server.url, app, "nejc");
      const { items, next } = await users();
      expect(next).toBeUndefined();
      expect(items.map((user) => user.username)).toEqual(["nejc", "marta"]);
      const [nejc] = items;
      // The organization sees its own ID for the member (the token's subject), never the identity's.
      expect(nejc?.id).toBe(second.tokens.claims()?.sub);
      expect(nejc?.id).not.toBe(second.identityId);
      expect(items.map((user) => user.id)).not.toContain(first.identityId);
      expect(nejc).toMatchObject({ status: "active", admin: false, applications: [app.applicationId] });
      expect(Date.parse(nejc?.joinedAt ?? "")).toBeGreaterThanOrEqual(before);
      expect(Date.parse(nejc?.lastSignedInAt ?? "")).toBeGreaterThanOrEqual(Date.parse(nejc?.joinedAt ?? ""));
    });

    it("are found by the beginnings of the words of their names, whatever the case", async () => {
      await signInToApp(server.url, app, "Pavla_Search");
      const found = async (q: string) =>
        (await users(`?q=${encodeURIComponent(q)}`)).items.map((user) => user.username);
      expect(await found("pavla")).toEqual(["Pavla_Search"]);
      expect(await found("PAV sea")).toEqual(["Pavla_Search"]);
      // The username pasted whole is split as the name is.
      expect(await found("pavla_search")).toEqual(["Pavla_Search"]);
      expect(await found("avla")).toEqual([]);
      expect(await found("pavla nobody")).toEqual([]);
      // LIKE's wildcards separate words as any other sign does, and are never patterns.
      expect(await found("p_vla")).toEqual([]);
      expect(await found("pa%a")).toEqual([]);
      expect(await found("pa\\vla")).toEqual([]);
    });

    it("come a page at a time with a cursor", async () => {
      const { organization: big, app: bigApp } = await organizationWithApp(owner, "Big club");
      for (let index = 0; index < 22; index++) await signInToApp(server.url, bigApp, `member${index}`);
      const page = async (cursor?: string) => {
        const response = await owner.api(
          `/api/o/users/${big.id}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        return organizationUsersPageSchema.parse(await response.json());
      };
      const first = await page();
      expect(first.items).toHaveLength(20);
      expect(first.next).toBeDefined();
      const second = await page(first.next);
      expect(second.next).toBeUndefined();
      const names = [...first.items, ...second.items].map((user) => user.username);
      expect(new Set(names).size).toBe(22);
      expect(names[0]).toBe("member21");
      expect(names.at(-1)).toBe("member0");
      expect((await owner.api(`/api/o/users/${big.id}?cursor=nonsense`)).status).toBe(400);
    });

    it("are refused to non-admins (403), strangers (401), and unknown organizations are not found", async () => {
      const member = await consoleSignUp(server.url, "rok");
      expect((await member.api(`/api/o/users/${organization.id}`)).status).toBe(403);
      expect((await fetch(`${server.url}/api/o/users/${organization.id}`)).status).toBe(401);
      expect((await owner.api(`/api/o/users/${"2".repeat(22)}`)).status).toBe(404);
    });
  });
});
