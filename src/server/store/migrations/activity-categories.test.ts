import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../../test/support/stores.ts";
import { activitiesOf, activitiesOfOrganization } from "../activities.ts";

describe.each(storeEngines)("migration 0013 on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open("0012-signing-key-rotation");
  });
  afterAll(() => store.dispose());

  it("files earlier activity under its category, for the account's and the organization's lists", async () => {
    const earlier = [
      { id: "a1", type: "signIn", created_at: 1000 },
      { id: "a2", type: "credentialAdd", created_at: 2000 },
      { id: "a3", type: "organizationUpdate", created_at: 3000 },
      { id: "a4", type: "signOut", created_at: 4000 },
    ];
    for (const { id, type, created_at } of earlier) {
      await sql`insert into activities (id, account_id, type, document, created_at)
        values (${id}, ${"account"}, ${type}, ${"{}"}, ${created_at})`.execute(store.db);
      await sql`insert into activity_organizations (activity_id, organization_id, membership_id, created_at)
        values (${id}, ${"organization"}, ${null}, ${created_at})`.execute(store.db);
    }
    await store.migrate();

    const own = await activitiesOf(store.db, "account", 10, { category: "signIns" });
    expect(own.map((row) => row.id)).toEqual(["a4", "a1"]);
    const methods = await activitiesOf(store.db, "account", 10, { category: "signInMethods" });
    expect(methods.map((row) => row.id)).toEqual(["a2"]);
    const organization = await activitiesOfOrganization(store.db, "organization", 10, {
      category: "organizations",
    });
    expect(organization.map((row) => row.id)).toEqual(["a3"]);
  });
});
