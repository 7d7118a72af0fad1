import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import {
  deleteMembership,
  ensureMembership,
  findIdentity,
  insertIdentity,
  membersOf,
  updateIdentityDocument,
  type IdentityDocument,
} from "./identities.ts";
import type { Position } from "./keyset.ts";
import { queryWordsOf } from "./search-text.ts";
import type { MemberSearchLimits } from "./identities.ts";

// An organization's members found by the beginnings of the words of their names, through the word
// index the identity's writes keep, on both engines.

const organizationId = "organization";
const strategies: MemberSearchLimits[] = [
  { rareWord: 100, walkedMembers: 100 },
  { rareWord: 1, walkedMembers: 100 },
  { rareWord: 1, walkedMembers: 1 },
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
      .selectFrom("identity_search_words")
      .select("word")
      .where("identity_id", "=", "ziga")
      .execute();
    expect(words).toEqual([]);
  });
});
