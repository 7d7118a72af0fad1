import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../../test/support/stores.ts";
import { membersOf } from "../member-search.ts";
import { queryWordsOf } from "../search-text.ts";

describe.each(storeEngines)("migration 0023 on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open("0022-account-deletion");
  });
  afterAll(() => store.dispose());

  it("gives every earlier membership the words of its identity, more than one batch of them, in its organization only", async () => {
    // More memberships than the migration reads at a time, so that a batch follows another.
    const count = 1500;
    const rows = Array.from({ length: count }, (_, index) => {
      const id = `identity-${String(index).padStart(5, "0")}`;
      const document = { username: `person-${index}`, fullName: index === 1234 ? "Ana Kosec" : "Luka Novak" };
      return sql`(${id}, 1, ${JSON.stringify({ ...document, admins: [id], users: [] })}, ${index}, ${index})`;
    });
    for (let from = 0; from < count; from += 500)
      await sql`insert into identities (id, version, document, created_at, updated_at)
        values ${sql.join(rows.slice(from, from + 500))}`.execute(store.db);
    // Every identity is a member of the first organization; every tenth of the second one as well.
    await sql`insert into identity_organizations (id, identity_id, organization_id, active, created_at)
      select 'first-' || id, id, 'first', 1, created_at from identities`.execute(store.db);
    await sql`insert into identity_organizations (id, identity_id, organization_id, active, created_at)
      select 'second-' || id, id, 'second', 1, created_at from identities
       where created_at % 10 = 0`.execute(store.db);
    await store.migrate();

    const found = async (organizationId: string, query: string) =>
      (await membersOf(store.db, organizationId, 3, { words: queryWordsOf(query) })).map((row) => row.id);
    expect(await found("first", "ana kos")).toEqual(["first-identity-01234"]);
    expect(await found("second", "ana kos")).toEqual([]);
    expect(await found("first", "novak")).toEqual([
      "first-identity-01499",
      "first-identity-01498",
      "first-identity-01497",
    ]);
    expect(await found("second", "luka novak")).toEqual([
      "second-identity-01490",
      "second-identity-01480",
      "second-identity-01470",
    ]);
    expect(await found("second", "person-1499")).toEqual([]);
    const words = await store.db
      .selectFrom("member_search_words")
      .select(["organization_id", (eb) => eb.fn.countAll<number | string>().as("words")])
      .groupBy("organization_id")
      .orderBy("organization_id")
      .execute();
    // person, the number, and the two words of the full name, for each membership.
    expect(words.map((row) => [row.organization_id, Number(row.words)])).toEqual([
      ["first", count * 4],
      ["second", (count / 10) * 4],
    ]);
  });
});
