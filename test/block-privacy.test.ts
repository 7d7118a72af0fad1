import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema, type Activity } from "../src/common/api/activity.ts";
import type { Organization } from "../src/common/api/organization.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { organizationWithApp, signInToApp, type ConsoleUser } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Two organizations that block the same person must not be able to tell it is the same person: what
// their admins read names the person only by the ID each organization knows them by. The activity
// read here is stored as earlier versions stored it (by the identity's own ID); the rule is applied
// when it is read.

describe.each(storeEngines)("blocks kept apart between organizations on $name", ({ url }) => {
  let server: TestServer;
  const sides: { admin: ConsoleUser; organization: Organization; app: TestApp; sub: string }[] = [];
  let personIdentity: string;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    for (const [username, name] of [
      ["alja", "Alpha"],
      ["bor", "Beta"],
    ] as const) {
      const admin = await consoleSignUp(server.url, username);
      const { organization, app } = await organizationWithApp(admin, name);
      sides.push({ admin, organization, app, sub: "" });
    }
    for (const side of sides) {
      const signedIn = await signInToApp(server.url, side.app, "petra");
      side.sub = signedIn.tokens.claims()?.sub ?? "";
      personIdentity = signedIn.identityId;
    }
  });
  afterAll(() => server.dispose());

  const read = async (api: ConsoleApi, path: string) => {
    const response = await api(path);
    expect(response.status, path).toBe(200);
    return (await response.json()) as unknown;
  };

  /** Everything about the person that the admin of this side can read, as the answers' text. */
  async function everythingRead(side: (typeof sides)[number]): Promise<string> {
    const { admin, organization, sub } = side;
    const api = admin.api;
    const base = organization.id;
    const answers: unknown[] = [];
    const entriesOf = async (path: string) => {
      const page = activityPageSchema.parse(await read(api, path));
      answers.push(page);
      return page.items;
    };
    for (const entry of [
      ...(await entriesOf("/api/activity")),
      ...(await entriesOf("/api/activity?category=identities")),
    ])
      answers.push(await read(api, `/api/activity/${entry.id}`));
    for (const entry of [
      ...(await entriesOf(`/api/o/activity/${base}`)),
      ...(await entriesOf(`/api/o/activity/${base}?identity=${sub}`)),
      ...(await entriesOf(`/api/o/activity/${base}?category=identities`)),
    ])
      answers.push(await read(api, `/api/o/activity/${base}/${entry.id}`));
    for (const path of [
      `/api/o/users/${base}`,
      `/api/o/users/${base}?q=petra`,
      `/api/o/block/${base}/${sub}`,
      `/api/o/blocked/${base}/${sub}`,
      `/api/o/identity/${base}/${sub}`,
      `/api/o/${base}`,
    ])
      answers.push(await read(api, path));
    return JSON.stringify(answers);
  }

  const block = (side: (typeof sides)[number], body: unknown) =>
    postJson(side.admin.api, `/api/o/block/${side.organization.id}/${side.sub}`, body);

  it("names the person to each organization's admin only by that organization's ID, in every answer", async () => {
    const [alpha, beta] = sides as [(typeof sides)[number], (typeof sides)[number]];
    expect(alpha.sub).not.toBe(beta.sub);
    expect((await block(alpha, { scope: "identity", adminNote: "seen in Beta too?" })).status).toBe(200);
    expect((await block(beta, { scope: "identityAndAccounts" })).status).toBe(200);
    expect((await block(beta, { unblock: true })).status).toBe(200);
    expect((await block(alpha, { unblock: true })).status).toBe(200);
    expect((await block(alpha, { scope: "identityAndAccounts" })).status).toBe(200);

    for (const [side, other] of [
      [alpha, beta],
      [beta, alpha],
    ] as const) {
      const answers = await everythingRead(side);
      expect(answers).not.toContain(personIdentity);
      expect(answers).not.toContain(other.sub);
      expect(answers).toContain(side.sub);

      // The admin's own entries still say whom they blocked and unblocked, as their organization knows them.
      const { items } = activityPageSchema.parse(await read(side.admin.api, "/api/activity"));
      const person = {
        id: side.sub,
        name: "petra",
        path: `/o/identity/${side.organization.id}/${side.sub}`,
      };
      const about = (type: Activity["type"]) => items.find((entry) => entry.type === type)?.identities;
      expect(about("identityBlocked")).toEqual([person]);
      expect(about("identityUnblocked")).toEqual([person]);
    }
  });
});
