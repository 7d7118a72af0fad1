import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema, activitySchema, type Activity } from "../src/common/api/activity.ts";
import { contextSchema } from "../src/common/api/context.ts";
import { identitySchema } from "../src/common/api/identity.ts";
import { organizationSchema, type Organization } from "../src/common/api/organization.ts";
import { newId } from "../src/server/ids.ts";
import { insertActivity } from "../src/server/store/activities.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Activity is recorded with IDs and read with names: of what the reader may see today, and never of
// another organization's people.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("activity on $name", ({ url }) => {
  let server: TestServer;
  let owner: Person;
  let member: Person;
  let other: Person;
  let templateId: string;
  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "meta");
    member = await consoleSignUp(server.url, "nika");
    other = await consoleSignUp(server.url, "oskar");
    const created = await postJson(owner.api, "/api/a/create", {
      name: "Timesheets",
      variables: [{ name: "uriBase" }],
      clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"] }],
    });
    templateId = ((await created.json()) as { id: string }).id;
  });
  afterAll(() => server.dispose());

  const activity = async (person: Person, query = "") => {
    const response = await person.api(`/api/activity${query}`);
    expect(response.status).toBe(200);
    return activityPageSchema.parse(await response.json()).items;
  };
  const latest = async (person: Person) => (await activity(person))[0];
  const read = async (api: ConsoleApi, id: string) =>
    organizationSchema.parse(await (await api(`/api/o/${id}`)).json());
  async function createOrganization(person: Person, name: string): Promise<Organization> {
    const { id } = (await (await postJson(person.api, "/api/o/create", { name })).json()) as { id: string };
    return read(person.api, id);
  }
  async function update(
    person: Person,
    organization: Organization,
    changes: Partial<Record<string, unknown>>,
  ) {
    const current = await read(person.api, organization.id);
    const response = await postJson(person.api, `/api/o/update/${organization.id}`, {
      version: current.version,
      name: current.name,
      description: current.description,
      admins: current.admins ?? [],
      applications: (current.applications ?? []).map(({ id, active, values }) => ({ id, active, values })),
      rotateSecrets: [],
      ...changes,
    });
    expect(response.status).toBe(200);
    return read(person.api, organization.id);
  }
  async function join(person: Person, organization: Organization, admin: Person, role: "member" | "admin") {
    const invited = await postJson(admin.api, `/api/o/invite/${organization.id}`, {
      identityId: person.identityId,
      role,
    });
    const { id } = (await invited.json()) as { id: string };
    const accepted = await postJson(person.api, `/api/i/accept/${person.identityId}/${id}`, {});
    expect(accepted.status).toBe(200);
  }
  const scopedId = async (person: Person, organization: Organization) => {
    const identity = identitySchema.parse(await (await person.api(`/api/i/${person.identityId}`)).json());
    return identity.organizations?.find((membership) => membership.organizationId === organization.id)?.id;
  };

  it("names what an entry is about, with the pages to open", async () => {
    const organization = await createOrganization(owner, "Acme");
    expect(await latest(owner)).toMatchObject({
      type: "organizationCreate",
      organizations: [{ id: organization.id, name: "Acme", path: `/o/${organization.id}` }],
    });
    const [template] = await activity(owner, "?category=applicationTemplates");
    expect(template).toMatchObject({
      type: "applicationTemplateCreate",
      // Who made it: the identity the developer used, and no organization.
      actor: { id: owner.identityId, name: "meta", path: `/i/${owner.identityId}` },
      applicationTemplates: [{ id: templateId, name: "Timesheets", path: `/a/${templateId}` }],
    });

    const [signIn] = await activity(owner, "?category=signIns");
    const context = contextSchema.parse(await (await fetch(`${server.url}/context.json`)).json());
    expect(signIn).toMatchObject({
      type: "signIn",
      organizations: [{ id: context.organizationId, name: "Vrata" }],
      // The console is named by its stored name; the web app shows it in the reader's language.
      applications: [
        { organizationId: context.organizationId, applicationId: context.applicationId, name: "Console" },
      ],
      identities: [{ id: owner.identityId, name: "meta", path: `/i/${owner.identityId}` }],
    });
  });

  it("names the identity and the app a person signed out of", async () => {
    const leaving = await consoleSignUp(server.url, "lea");
    const signedOut = await leaving.driver.fetch(`${server.url}/auth/signout`, {
      method: "POST",
      headers: { authorization: `Bearer ${leaving.tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ location: "/" }),
    });
    expect(signedOut.status).toBe(200);
    // Signed in again, with the same identity, to read what was recorded.
    const back = await consoleSignUp(server.url, "lea", leaving.identityId);
    const context = contextSchema.parse(await (await fetch(`${server.url}/context.json`)).json());
    const signOut = (await activity(back, "?category=signIns")).find((entry) => entry.type === "signOut");
    expect(signOut).toMatchObject({
      identities: [{ id: leaving.identityId, name: "lea", path: `/i/${leaving.identityId}` }],
      organizations: [{ id: context.organizationId, name: "Vrata" }],
      applications: [
        { organizationId: context.organizationId, applicationId: context.applicationId, name: "Console" },
      ],
    });
  });

  it("records which fields and which applications changed, and names them", async () => {
    const organization = await createOrganization(owner, "Fields");
    const added = await update(owner, organization, {
      name: "Fields & Co",
      description: "Renamed",
      applications: [
        { templateId, active: true, values: [{ name: "uriBase", value: "https://app.example" }] },
      ],
    });
    const applicationId = added.applications?.[0]?.id ?? "";
    const application = { organizationId: organization.id, applicationId, name: "Timesheets" };
    expect((await latest(owner))?.changes).toEqual([
      { kind: "otherData", fields: ["name", "description"] },
      {
        kind: "membershipAdded",
        applications: [{ ...application, path: `/o/app/${organization.id}/${applicationId}` }],
      },
    ]);

    // A disabled application has no public page: its admins still see its name.
    await update(owner, added, {
      applications: [
        { id: applicationId, active: false, values: [{ name: "uriBase", value: "https://app.example" }] },
      ],
    });
    expect((await latest(owner))?.changes).toEqual([
      { kind: "membershipDisabled", applications: [application] },
    ]);
  });

  it("names another person's identity only to admins of the organization it joined, as that organization sees it", async () => {
    const first = await createOrganization(owner, "First");
    const second = await createOrganization(owner, "Second");
    const app = await update(owner, first, {
      applications: [
        { templateId, active: true, values: [{ name: "uriBase", value: "https://first.example" }] },
      ],
    });
    const appId = app.applications?.[0]?.id ?? "";
    await join(member, first, owner, "member");
    await join(member, second, owner, "member");
    const firstId = (await scopedId(member, first)) ?? "";
    const secondId = (await scopedId(member, second)) ?? "";
    const joinedFirst = `/o/identity/${first.id}/${firstId}`;
    const joinedSecond = `/o/identity/${second.id}/${secondId}`;
    expect(firstId).not.toBe(secondId);

    const joined = (entries: Activity[], organization: Organization) =>
      entries.find(
        (entry) =>
          entry.organizations?.[0]?.id === organization.id && entry.changes?.[0]?.kind === "identitiesAdded",
      )?.changes?.[0]?.identities;
    let entries = await activity(owner);
    // Each by the ID that organization knows the member by, never by the identity's own.
    expect(joined(entries, first)).toEqual([{ id: firstId, name: "nika", path: joinedFirst }]);
    expect(joined(entries, second)).toEqual([{ id: secondId, name: "nika", path: joinedSecond }]);
    // The member sees the organizations they joined.
    expect((await latest(member))?.changes).toEqual([
      {
        kind: "membershipAdded",
        organizations: [{ id: second.id, name: "Second", path: `/o/${second.id}` }],
      },
    ]);

    // The owner stops being an admin of the first organization (another admin removes them, and
    // disables its application): what the owner recorded about it no longer shows its member at all, nor its
    // disabled application, even though the member is in the second organization the owner still runs.
    await join(other, first, owner, "admin");
    await update(other, first, {
      admins: [other.identityId],
      applications: [
        { id: appId, active: false, values: [{ name: "uriBase", value: "https://first.example" }] },
      ],
    });
    entries = await activity(owner);
    expect(joined(entries, first)).toEqual([]);
    expect(joined(entries, second)).toEqual([{ id: secondId, name: "nika", path: joinedSecond }]);
    const addedApp = entries.find(
      (entry) => entry.organizations?.[0]?.id === first.id && entry.changes?.[0]?.kind === "membershipAdded",
    );
    expect(addedApp?.changes?.[0]?.applications).toEqual([
      { organizationId: first.id, applicationId: appId },
    ]);
    // Organizations are public: still named.
    expect(addedApp?.organizations).toEqual([{ id: first.id, name: "First", path: `/o/${first.id}` }]);

    // A stranger to both organizations never learns the member's name from the organization's records.
    expect(JSON.stringify(await activity(other))).not.toContain("nika");
  });

  it("reads entries recorded before changes carried details", async () => {
    const [recent] = await activity(owner);
    const row = await server.db
      .selectFrom("activities")
      .select("account_id")
      .where("id", "=", recent?.id ?? "")
      .executeTakeFirstOrThrow();
    const organization = await createOrganization(owner, "Old times");
    const legacy = {
      type: "organizationUpdate",
      organizations: [{ id: organization.id }],
      identities: [{ id: owner.identityId }],
      changes: ["permissionsAdded"],
    };
    const id = newId();
    await insertActivity(server.db, {
      id,
      accountId: row.account_id,
      type: legacy.type,
      document: JSON.stringify(legacy),
      createdAt: Date.now() + 60_000,
    });
    const read = activitySchema.parse(await (await owner.api(`/api/activity/${id}`)).json());
    expect(read).toMatchObject({
      type: "organizationUpdate",
      organizations: [{ id: organization.id, name: "Old times" }],
      changes: [{ kind: "permissionsAdded", identities: [{ id: owner.identityId, name: "meta" }] }],
    });
    expect(read.identities).toBeUndefined();
  });

  it("narrows the list to one category, and refuses unknown ones", async () => {
    const signIns = await activity(member, "?category=signIns");
    expect(signIns.map((entry) => entry.type)).toEqual(["signIn"]);
    const identities = await activity(member, "?category=identities");
    expect(new Set(identities.map((entry) => entry.type))).toEqual(
      new Set(["identityUpdate", "identityCreate"]),
    );
    const unknown = await member.api("/api/activity?category=everything");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "badRequest", field: "category" });
  });
});
