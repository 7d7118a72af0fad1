import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { insertAccount, insertCredential } from "./accounts.ts";
import { controllingAccounts } from "./identity-controllers.ts";
import { insertIdentity, type IdentityShare } from "./identities.ts";

// The accounts that reach identities, found from the identities, on both engines: every way an
// account reaches one (created, shared with it or its address, through the identities it lists).

const factorProviders = ["totp", "passkey"];

describe.each(storeEngines)("accounts controlling identities on $name", ({ open }) => {
  let store: TestStore;
  let at = 1000;

  const account = async (id: string, providers: string[] = []) => {
    await insertAccount(store.db, id, (at += 1));
    for (const provider of providers)
      await insertCredential(
        store.db,
        {
          id: `${id}-${provider}`,
          accountId: id,
          provider,
          providerId: provider === "email" ? `${id}@example.com` : null,
          displayName: provider,
          data: "{}",
        },
        (at += 1),
      );
  };
  const identity = async (
    id: string,
    creatorAccountId: string | null,
    { admins = [id], users = [], shares }: { admins?: string[]; users?: string[]; shares?: IdentityShare[] },
  ) =>
    insertIdentity(
      store.db,
      { id, document: { admins, users, ...(shares ? { shares } : {}) }, creatorAccountId },
      (at += 1),
    );

  beforeAll(async () => {
    store = await open();
    await account("ana", ["totp", "passkey"]);
    await account("bojan", ["totp"]);
    await account("cene", ["email", "passkey"]);
    await account("dora");
    await identity("ana-own", "ana", {});
    await identity("bojan-own", "bojan", {});
    await identity("dora-own", "dora", {});
    // Created by Ana but run by Bojan's identity: Ana reaches it only if it lists her own.
    await identity("team", "ana", { admins: ["bojan-own"], users: ["dora-own"] });
    await identity("shared", "ana", {
      shares: [
        { id: "share-bojan", person: "bojan", accountId: "bojan", role: "user" },
        { id: "share-cene", person: "cene@example.com", addressKey: "cene@example.com", role: "user" },
        { id: "share-nobody", person: "nobody@example.com", addressKey: "nobody@example.com", role: "user" },
      ],
    });
    // Listing each other, each reaches the other: the walk ends where it began.
    await identity("ring-a", null, { admins: ["ring-b"] });
    await identity("ring-b", null, { admins: ["ring-a", "dora-own"] });
    await identity("orphan", null, { admins: [] });
  });
  afterAll(() => store.dispose());

  /** Each identity's accounts, each with the providers among factorProviders it has. */
  const controllersOf = async (identityIds: string[]) => {
    const rows = await controllingAccounts(store.db, identityIds, factorProviders);
    const found: Record<string, Record<string, string[]>> = {};
    for (const { identityId, accountId, provider } of rows) {
      const accounts = (found[identityId] ??= {});
      const providers = (accounts[accountId] ??= []);
      if (provider !== null) providers.push(provider);
      providers.sort();
    }
    return found;
  };

  it("are the account that created an identity listing itself among its admins", async () => {
    expect(await controllersOf(["ana-own", "dora-own"])).toEqual({
      "ana-own": { ana: ["passkey", "totp"] },
      "dora-own": { dora: [] },
    });
  });

  it("are those of the identities it lists among its admins and users, not its creator's", async () => {
    expect(await controllersOf(["team"])).toEqual({ team: { bojan: ["totp"], dora: [] } });
  });

  it("are the accounts it is shared with, by username or by an address they have", async () => {
    expect(await controllersOf(["shared"])).toEqual({
      shared: { ana: ["passkey", "totp"], bojan: ["totp"], cene: ["passkey"] },
    });
  });

  it("are found however the identities list each other, and none for an identity nobody reaches", async () => {
    expect(await controllersOf(["ring-a", "ring-b", "orphan"])).toEqual({
      "ring-a": { dora: [] },
      "ring-b": { dora: [] },
    });
  });

  it("are each listed once for several identities asked for together", async () => {
    const rows = await controllingAccounts(store.db, ["team", "shared", "bojan-own"], factorProviders);
    const keys = rows.map((row) => `${row.identityId} ${row.accountId} ${row.provider}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(await controllersOf(["team", "shared", "bojan-own"])).toEqual({
      team: { bojan: ["totp"], dora: [] },
      shared: { ana: ["passkey", "totp"], bojan: ["totp"], cene: ["passkey"] },
      "bojan-own": { bojan: ["totp"] },
    });
    expect(await controllingAccounts(store.db, [], factorProviders)).toEqual([]);
  });
});
