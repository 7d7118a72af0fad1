import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../../test/support/stores.ts";
import { membersOf } from "../member-search.ts";
import { queryWordsOf } from "../search-text.ts";

describe.each(storeEngines)("migration 0014 on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open("0013-activity-categories");
  });
  afterAll(() => store.dispose());

  it("indexes the words of every earlier identity, more than one batch of them", async () => {
    // More identities than the migration reads at a time, so that a batch follows another.
    const count = 2500;
    const rows = Array.from({ length: count }, (_, index) => {
      const id = `identity-${String(index).padStart(5, "0")}`;
      const document = { username: `person-${index}`, fullName: index === 1234 ? "Ana Kosec" : "Luka Novak" };
      return sql`(${id}, 1, ${JSON.stringify({ ...document, admins: [id], users: [] })}, ${"text"}, ${index}, ${index})`;
    });
    for (let from = 0; from < count; from += 500)
      await sql`insert into identities (id, version, document, search_text, created_at, updated_at)
        values ${sql.join(rows.slice(from, from + 500))}`.execute(store.db);
    await sql`insert into identity_organizations (id, identity_id, organization_id, active, created_at)
      select 'member-' || id, id, 'organization', 1, created_at from identities`.execute(store.db);
    await store.migrate();

    const found = async (query: string) =>
      (await membersOf(store.db, "organization", 3, { words: queryWordsOf(query) })).map(
        (row) => row.identityId,
      );
    expect(await found("ana kos")).toEqual(["identity-01234"]);
    expect(await found("person-2499")).toEqual(["identity-02499"]);
    expect(await found("person-0")).toEqual(["identity-00000"]);
    const words = await store.db
      .selectFrom("identity_search_words")
      .select((eb) => eb.fn.countAll<number | string>().as("words"))
      .executeTakeFirstOrThrow();
    // person, the number, and the two words of the full name.
    expect(Number(words.words)).toBe(count * 4);
    const columns = await sql`select * from identities limit 1`.execute(store.db);
    expect(Object.keys(columns.rows[0] ?? {})).not.toContain("search_text");
  });
});
