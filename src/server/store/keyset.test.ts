import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { activitiesOf, activitiesOfOrganization, insertActivity } from "./activities.ts";
import type { Position } from "./keyset.ts";

// Pages of newest-first lists follow one another by cursor: every row once, in order, also when many
// rows share a millisecond and a page ends among them.

const organizationId = "organization";
const times = [5000, 4000, 4000, 4000, 4000, 4000, 3000, 3000, 2000, 1000];
const ids = times.map((_, index) => `activity-${String(index).padStart(2, "0")}`);

async function pagesOf(list: (before: Position | undefined) => Promise<{ id: string; createdAt: number }[]>) {
  const seen: string[] = [];
  let before: Position | undefined;
  for (;;) {
    const page = await list(before);
    seen.push(...page.map((row) => row.id));
    const last = page.at(-1);
    if (page.length < 3 || !last) return seen;
    before = { createdAt: last.createdAt, id: last.id };
  }
}

describe.each(storeEngines)("keyset pages on $name", ({ open }) => {
  let store: TestStore;
  const expected = ids
    .map((id, index) => ({ id, createdAt: times[index] ?? 0 }))
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .map(({ id }) => id);

  beforeAll(async () => {
    store = await open();
    for (const [index, id] of ids.entries())
      await insertActivity(
        store.db,
        { id, accountId: "account", type: "signIn", document: "{}", createdAt: times[index] ?? 0 },
        [{ organizationId }],
      );
  });
  afterAll(() => store.dispose());

  it("list an account's activity once each, newest first, across ties", async () => {
    const seen = await pagesOf((before) => activitiesOf(store.db, "account", 3, { before }));
    expect(seen).toEqual(expected);
  });

  it("list an organization's activity once each, newest first, across ties", async () => {
    const seen = await pagesOf((before) => activitiesOfOrganization(store.db, organizationId, 3, { before }));
    expect(seen).toEqual(expected);
  });
});
