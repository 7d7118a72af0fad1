import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import {
  deleteMembership,
  ensureMembership,
  findIdentity,
  insertIdentity,
  updateIdentityDocument,
  type IdentityDocument,
} from "./identities.ts";
import type { Position } from "./keyset.ts";
import { membersOf, type MemberSearchLimits } from "./member-search.ts";
import { queryWordsOf } from "./search-text.ts";

// An organization's members found by the beginnings of the words of their names, through the word
// rows that the writes of identities and memberships keep, on both engines.

const organizationId = "organization";
const otherOrganizationId = "other-organization";
/** Every way a search may go: from the rarest word or any, each word read in order or all sorted. */
const fromRarest: MemberSearchLimits = { countedRows: 100, orderedWords: 100 };
const strategies: MemberSearchLimits[] = [
  fromRarest,
  { countedRows: 1, orderedWords: 1 },
  { countedRows: 100, orderedWords: 0 },
];
const people: Record<string, Omit<IdentityDocument, "admins" | "users">> = {
  ana: { username: "ana.kos", email: "ana.kos@example.com", givenName: "Ana", fullName: "Ana Kosec" },
  luka: { username: "luka", givenName: "Luka", fullName: "Luka Novak" },
  ziga: { username: "person-12345", givenName: "Žiga", fullName: "Žiga Zupančič" },
  wild: { username: "100%_sure\\really" },
  anja: { username: "anja", fullName: "Anja Horvat" },
  anabela: { email: "anabela@example.com" },
};

describe.each(storeEngines)("member search on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
    let at = 1000;
    for (const [id, names] of Object.entries(people)) {
      await insertIdentity(
        store.db,
        { id, document: { ...names, admins: [id], users: [] }, creatorAccountId: null },
        at,
      );
      await ensureMembership(
        store.db,
        { id: `member-${id}`, identityId: id, organizationId, active: true },
        (at += 1000),
      );
    }
  });
  afterAll(() => store.dispose());

  /**
   * The members the query finds, the same whichever way the search starts: from a rare word, reading
   * the members newest first, or from the rarest word when reading them did not fill the page.
   */
  const found = async (query: string) => {
    const words = queryWordsOf(query);
    const answers = await Promise.all(
      strategies.map(async (limits) =>
        (await membersOf(store.db, organizationId, 10, { words }, limits)).map((member) => member.identityId),
      ),
    );
    for (const answer of answers.slice(1)) expect(answer, query).toEqual(answers[0]);
    return answers[0];
  };

  it("finds members by the beginnings of any of their words, newest first", async () => {
    expect(await found("nov")).toEqual(["luka"]);
    expect(await found("ana kos")).toEqual(["ana"]);
    // The beginning of a second word, of a full name and of an e-mail address.
    expect(await found("kosec")).toEqual(["ana"]);
    // Two words of one member begin with it ("kos", "kosec"), three with "ana": listed once.
    expect(await found("kos")).toEqual(["ana"]);
    expect(await found("ana")).toEqual(["anabela", "ana"]);
    expect(await found("exam")).toEqual(["anabela", "ana"]);
    expect(await found("12345")).toEqual(["ziga"]);
    expect(await found("ŽIGA zup")).toEqual(["ziga"]);
    expect(await found("z\u030Ciga")).toEqual(["ziga"]);
    expect(await found("")).toEqual(["anabela", "anja", "wild", "ziga", "luka", "ana"]);
  });

  it("pages through what it finds with the cursor of the page before", async () => {
    for (const limits of strategies) {
      const seen: string[] = [];
      let before: Position | undefined;
      for (let pages = 0; pages < 5; pages++) {
        const page = await membersOf(store.db, organizationId, 2, { before, words: ["an"] }, limits);
        seen.push(...page.map((member) => member.identityId));
        const last = page.at(-1);
        if (page.length < 2 || !last) break;
        before = { createdAt: last.joinedAt, id: last.id };
      }
      expect(seen, JSON.stringify(limits)).toEqual(["anabela", "anja", "ana"]);
    }
  });

  it("finds an e-mail address or username pasted whole", async () => {
    expect(await found("ana.kos@example.com")).toEqual(["ana"]);
    expect(await found("person-12345")).toEqual(["ziga"]);
  });

  it("does not find words in the middle of a word, nor words that only some query words begin", async () => {
    expect(await found("ovak")).toEqual([]);
    expect(await found("osec")).toEqual([]);
    expect(await found("2345")).toEqual([]);
    expect(await found("ana zup")).toEqual([]);
    expect(await found("nobody")).toEqual([]);
    // As many words as a query can hold are checked all the same.
    expect(await found(Array.from({ length: 60 }, (_, index) => `w${index}`).join(" "))).toEqual([]);
  });

  it("treats LIKE wildcards as what separates words, never as patterns", async () => {
    expect(await found("100%_sure\\really")).toEqual(["wild"]);
    expect(await found("n_vak")).toEqual([]);
    expect(await found("n%k")).toEqual([]);
    expect(await found("lu\\a")).toEqual([]);
    expect(await found("%")).toEqual(await found(""));
  });

  it("follows an identity's names when they change", async () => {
    const luka = await findIdentity(store.db, "luka");
    if (!luka) throw new Error("luka is missing");
    const renamed = { ...luka.document, username: "lukec", fullName: "Luka Mlakar" };
    expect(await updateIdentityDocument(store.db, "luka", luka.version, renamed, 9000)).toBe(true);
    expect(await found("novak")).toEqual([]);
    expect(await found("mlak")).toEqual(["luka"]);
    expect(await found("lukec")).toEqual(["luka"]);
  });

  it("no longer finds a member who left, nor an identity that is gone", async () => {
    expect(await found("kosec")).toEqual(["ana"]);
    await deleteMembership(store.db, "member-ana");
    expect(await found("kosec")).toEqual([]);
    expect(await found("zupančič")).toEqual(["ziga"]);
    await store.db.deleteFrom("identities").where("id", "=", "ziga").execute();
    expect(await found("zupančič")).toEqual([]);
    const words = await store.db
      .selectFrom("member_search_words")
      .select("word")
      .where("membership_id", "in", ["member-ana", "member-ziga"])
      .execute();
    expect(words).toEqual([]);
  });
});

describe.each(storeEngines)("member search across organizations and pages on $name", ({ open }) => {
  let store: TestStore;
  /** Members of the organization, newest last, with the words of their names. */
  const names = ["Novak", "Novaković", "Novakova", "Nova", "Horvat"];
  const members = Array.from({ length: 30 }, (_, index) => ({
    id: `person-${String(index).padStart(2, "0")}`,
    fullName: `${index % 3 === 0 ? "Ana" : "Luka"} ${names[index % names.length] ?? ""}`,
  }));

  beforeAll(async () => {
    store = await open();
    let at = 1000;
    for (const { id, fullName } of members) {
      await insertIdentity(
        store.db,
        { id, document: { fullName, admins: [id], users: [] }, creatorAccountId: null },
        at,
      );
      // Two members a millisecond: the cursor's ID tells them apart.
      at += index(id) % 2;
      await ensureMembership(
        store.db,
        { id: `member-${id}`, identityId: id, organizationId, active: true },
        at,
      );
    }
    await insertIdentity(
      store.db,
      {
        id: "outsider",
        document: { fullName: "Ana Novak", email: "secret@example.com", admins: [], users: [] },
        creatorAccountId: null,
      },
      at,
    );
    await ensureMembership(
      store.db,
      { id: "member-outsider", identityId: "outsider", organizationId: otherOrganizationId, active: true },
      at,
    );
  });
  afterAll(() => store.dispose());

  function index(id: string) {
    return Number(id.slice("person-".length));
  }

  /** Every member the query finds, page after page of `size`, following each page's cursor. */
  async function allPages(organization: string, query: string, limits: MemberSearchLimits, size: number) {
    const seen: string[] = [];
    let before: Position | undefined;
    for (;;) {
      const page = await membersOf(
        store.db,
        organization,
        size,
        { before, words: queryWordsOf(query) },
        limits,
      );
      seen.push(...page.map((member) => member.identityId));
      const last = page.at(-1);
      if (page.length < size || !last) return seen;
      before = { createdAt: last.joinedAt, id: last.id };
    }
  }

  const newestFirst = (ids: string[]) => ids.reverse();

  it("pages through members of every word a query word begins, newest first, each once", async () => {
    const novak = newestFirst(
      members.filter((member) => / Novak/.test(member.fullName)).map((member) => member.id),
    );
    const anaNova = newestFirst(
      members.filter((member) => /^Ana Nova/.test(member.fullName)).map((member) => member.id),
    );
    for (const limits of strategies)
      for (const size of [1, 4, 7]) {
        const label = `${JSON.stringify(limits)} by ${size}`;
        expect(await allPages(organizationId, "novak", limits, size), label).toEqual(novak);
        expect(await allPages(organizationId, "nova ana", limits, size), label).toEqual(anaNova);
        expect(await allPages(organizationId, "horvat luka ana", limits, size), label).toEqual([]);
      }
  });

  it("finds only the organization's own members, by what they are known by there", async () => {
    for (const limits of strategies) {
      expect(await allPages(otherOrganizationId, "ana novak", limits, 10)).toEqual(["outsider"]);
      expect(await allPages(otherOrganizationId, "luka", limits, 10)).toEqual([]);
      expect(await allPages(organizationId, "secret", limits, 10)).toEqual([]);
      expect(await allPages(organizationId, "ana novak", limits, 50)).not.toContain("outsider");
    }
  });

  it("finds a member who joins with the names they have, in each organization they join", async () => {
    await ensureMembership(
      store.db,
      { id: "member-outsider-too", identityId: "outsider", organizationId, active: true },
      5000,
    );
    expect(await allPages(organizationId, "secret", fromRarest, 10)).toEqual(["outsider"]);
    const outsider = await findIdentity(store.db, "outsider");
    if (!outsider) throw new Error("outsider is missing");
    const renamed = { ...outsider.document, email: "open@example.com" };
    expect(await updateIdentityDocument(store.db, "outsider", outsider.version, renamed, 6000)).toBe(true);
    for (const organization of [organizationId, otherOrganizationId]) {
      expect(await allPages(organization, "secret", fromRarest, 10)).toEqual([]);
      expect(await allPages(organization, "open", fromRarest, 10)).toEqual(["outsider"]);
    }
    await deleteMembership(store.db, "member-outsider-too");
    expect(await allPages(organizationId, "open", fromRarest, 10)).toEqual([]);
    expect(await allPages(otherOrganizationId, "open", fromRarest, 10)).toEqual(["outsider"]);
  });
});
